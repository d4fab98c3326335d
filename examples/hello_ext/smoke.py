# The smoke test verify runs after installing the wheel: import after torch, one op against pure torch.
import torch
import hello_ext

device = globals().get("device", "cpu")
t = torch.arange(4, dtype=torch.float32, device=device)
out = hello_ext.add_one(t)
assert torch.equal(out, t + 1), out
print("hello_ext.add_one ok:", out.tolist())
