# The smoke test verify runs after installing the wheel: on a GPU machine (device = "cuda") one kernel
# launch, elsewhere the CPU path; compared with pure torch.
import torch
import hello_cuda_ext

device = globals().get("device", "cpu")
t = torch.arange(4, dtype=torch.float32, device=device)
out = hello_cuda_ext.add_one(t)
assert torch.equal(out, t + 1), out
print("hello_cuda_ext.add_one ok:", out.tolist())
