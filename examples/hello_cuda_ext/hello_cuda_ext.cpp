// hello_cuda_ext.add_one(t): t + 1, by a CUDA kernel (add_one_kernel.cu) on a CUDA tensor and by ATen
// on a CPU one, so a machine without a GPU can still import and smoke-test the wheel.
#include <torch/extension.h>

torch::Tensor add_one_cuda(const torch::Tensor& t);

torch::Tensor add_one(const torch::Tensor& t) {
  return t.is_cuda() ? add_one_cuda(t) : t + 1;
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) { m.def("add_one", &add_one, "t + 1 (a CUDA kernel)"); }
