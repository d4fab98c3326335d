# hello_ext: the smallest torch C++ extension torchsmith builds, packages and verifies (one ATen op).
from setuptools import setup
from torch.utils.cpp_extension import BuildExtension, CppExtension

setup(
    name="hello_ext",
    version="0.1.0",
    ext_modules=[CppExtension("hello_ext", ["hello_ext.cpp"])],
    cmdclass={"build_ext": BuildExtension},
)
