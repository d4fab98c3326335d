# hello_cuda_ext: the CUDA twin of hello_ext (one kernel), the smallest CUDA extension torchsmith builds.
from setuptools import setup
from torch.utils.cpp_extension import BuildExtension, CUDAExtension

setup(
    name="hello_cuda_ext",
    version="0.1.0",
    ext_modules=[CUDAExtension("hello_cuda_ext", ["hello_cuda_ext.cpp", "add_one_kernel.cu"])],
    cmdclass={"build_ext": BuildExtension},
)
