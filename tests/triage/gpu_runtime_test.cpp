// Failures of built code running on the GPU and in multi-GPU jobs: each class in every wording its
// tools print (CUDA runtime/driver/HIP, old THC/THCUNN and ATen, NCCL's old and new sources, Gloo),
// and near misses that share its words but are not that failure.
#include "test_util.h"

namespace ts::triage::testing {
namespace {

const Wording kGpuRuntimeWordings[] = {
    // A launch needing more registers/threads/shared memory per block than the GPU has: runtime text,
    // THC's error 7, driver and HIP enum names, a capitalised program message.
    {"RuntimeError: CUDA error: too many resources requested for launch", "CUDA_LAUNCH_OUT_OF_RESOURCES"},
    {"THCudaCheck FAIL file=/x/THCGeneral.c line=608 error=7 : too many resources requested for launch", "CUDA_LAUNCH_OUT_OF_RESOURCES"},
    {"ERROR: CUDA error: too many resources requested for launch (code #701, ERROR_LAUNCH_OUT_OF_RESOURCES)", "CUDA_LAUNCH_OUT_OF_RESOURCES"},
    {"numba.cuda.cudadrv.driver.CudaAPIError: [701] Call to cuLaunchKernel results in CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES", "CUDA_LAUNCH_OUT_OF_RESOURCES"},
    {"HIP error: hipErrorLaunchOutOfResources", "CUDA_LAUNCH_OUT_OF_RESOURCES"},
    {"[CUDA ERROR]: Too many resources requested for launch", "CUDA_LAUNCH_OUT_OF_RESOURCES"},
    // NCCL's /dev/shm segment: old include/shm.h and newer misc/shmutils.cc wordings.
    {"include/shm.h:28 NCCL WARN Call to posix_fallocate failed: No space left on device", "NCCL_SHM_UNAVAILABLE"},
    {"node08:27106:27302 [0] include/shm.h:27 NCCL WARN Call to shm_open failed : Permission denied", "NCCL_SHM_UNAVAILABLE"},
    {"ubuntu:9621:9691 [6] misc/shmutils.cc:71 NCCL WARN Error: failed to extend /dev/shm/nccl-fjwOOB to 5967876 bytes", "NCCL_SHM_UNAVAILABLE"},
    {"NCCL WARN Error while creating shared memory segment /dev/shm/nccl-xxxxx (size 7340384)", "NCCL_SHM_UNAVAILABLE"},
    // No interface to bootstrap on: NCCL's warnings (none found, none matching, garbage family) and Gloo's lookup.
    {"[trainer0|0]:ncclSocketInit: connecting to address  with family 59936 is neither AF_INET(2) nor AF_INET6(10)", "NCCL_SOCKET_INTERFACE_NOT_FOUND"},
    {"invalid usage ... Last NCCL warning(error): 'Bootstrap : no socket interface found'", "NCCL_SOCKET_INTERFACE_NOT_FOUND"},
    {"include/socket.h:344 WARN Socket creation failed : Address family not supported by protocol", "NCCL_SOCKET_INTERFACE_NOT_FOUND"},
    {"  what():  [enforce fail at /tmp/horovod/third_party/gloo/gloo/transport/tcp/device.cc:88] ifa != nullptr. Unable to find address for: eth0", "NCCL_SOCKET_INTERFACE_NOT_FOUND"},
    {"RuntimeError: [enforce fail at ../third_party/gloo/gloo/transport/tcp/device.cc:127] rp != nullptr. Unable to find address for: node7.cluster", "NCCL_SOCKET_INTERFACE_NOT_FOUND"},
    // Bounds asserts of CUDA kernels: THCUNN and ATen NLL loss, index_select, indexing (both operand orders).
    {"/pytorch/aten/src/THCUNN/SpatialClassNLLCriterion.cu:106: cunn_SpatialClassNLLCriterion_updateOutput_kernel: block: [0,0,0], thread: [725,0,0] Assertion `t >= 0 && t < n_classes` failed", "CUDA_DEVICE_ASSERT_INDEX_OUT_OF_RANGE"},
    {"../aten/src/ATen/native/cuda/Loss.cu:271: nll_loss_forward_reduce_cuda_kernel_2d: block: [0,0,0], thread: [3,0,0] Assertion `t >= 0 && t < n_classes` failed.", "CUDA_DEVICE_ASSERT_INDEX_OUT_OF_RANGE"},
    {"../aten/src/ATen/native/cuda/Indexing.cu:1146: indexSelectLargeIndex: block: [84,0,0], thread: [101,0,0] Assertion `srcIndex < srcSelectDimSize` failed.", "CUDA_DEVICE_ASSERT_INDEX_OUT_OF_RANGE"},
    {"../aten/src/ATen/native/cuda/IndexKernel.cu:92: operator(): block: [3361,0,0], thread: [63,0,0] Assertion `-sizes[i] <= index && index < sizes[i] && \"index out of bounds\"` failed.", "CUDA_DEVICE_ASSERT_INDEX_OUT_OF_RANGE"},
    {"C:\\w\\aten\\src\\ATen\\native\\cuda\\IndexKernel.cu:91: block: [26,0,0], thread: [32,0,0] Assertion `index >= -sizes[i] && index < sizes[i] && \"index out of bounds\"` failed.", "CUDA_DEVICE_ASSERT_INDEX_OUT_OF_RANGE"},
    // torch.compile's Triton backend on a GPU below compute capability 7.0 (the message's two halves).
    {"RuntimeError: Found NVIDIA GeForce GTX 1070 which is too old to be supported by the triton GPU compiler, which is used as the backend. Triton only supports devices of CUDA Capability >= 7.0, but your device is of CUDA capability 6.1", "TRITON_GPU_TOO_OLD"},
    {"My GPU is too old: \"Triton only supports devices of CUDA Capability >= 7.0, but your device is of CUDA capability 6.1\"", "TRITON_GPU_TOO_OLD"},
};

class GpuRuntimeWording : public ::testing::TestWithParam<Wording> {};

TEST_P(GpuRuntimeWording, NamesTheRootCause) {
  expect_root_cause(GetParam());
}

INSTANTIATE_TEST_SUITE_P(AllWordings, GpuRuntimeWording, ::testing::ValuesIn(kGpuRuntimeWordings));

// Lines sharing the words of a class that are not that failure.
TEST(GpuRuntimeNearMiss, DoesNotNameTheClass) {
  for (const Wording& n : {
           // ptxas reporting register use at build time; an unrelated resource word.
           Wording{"ptxas info    : Used 255 registers, 352 bytes cmem[0]", "CUDA_LAUNCH_OUT_OF_RESOURCES"},
           Wording{"Too many open files: requested for launch of worker 3", "CUDA_LAUNCH_OUT_OF_RESOURCES"},
           // NCCL using (not failing) its SHM transport; a full disk elsewhere; attaching to a segment that is gone.
           Wording{"node1:211:260 [1] NCCL INFO Channel 00 : 1[1] -> 0[0] via SHM/direct/direct", "NCCL_SHM_UNAVAILABLE"},
           Wording{"OSError: [Errno 28] No space left on device: '/tmp/ckpt.pt'", "NCCL_SHM_UNAVAILABLE"},
           Wording{"NCCL WARN Error while attaching to shared memory segment /dev/shm/nccl- (size 0), error: No such file or directory (2)", "NCCL_SHM_UNAVAILABLE"},
           // An interface that was found; a plain connect failure.
           Wording{"node1:88:88 [0] NCCL INFO Bootstrap : Using eth0:10.0.0.4<0>", "NCCL_SOCKET_INTERFACE_NOT_FOUND"},
           Wording{"include/socket.h:360 WARN Call to connect failed : Connection timed out", "NCCL_SOCKET_INTERFACE_NOT_FOUND"},
           Wording{"Unable to find address for Device 0", "NCCL_SOCKET_INTERFACE_NOT_FOUND"},
           // A device-side assert with no bounds check named; a host-side IndexError.
           Wording{"RuntimeError: CUDA error: device-side assert triggered", "CUDA_DEVICE_ASSERT_INDEX_OUT_OF_RANGE"},
           Wording{"IndexError: index out of range in self", "CUDA_DEVICE_ASSERT_INDEX_OUT_OF_RANGE"},
           Wording{"/x/kernel.cu:12: block: [0,0,0], thread: [0,0,0] Assertion `n > 0` failed.", "CUDA_DEVICE_ASSERT_INDEX_OUT_OF_RANGE"},
           // Triton missing rather than the GPU too old.
           Wording{"RuntimeError: Cannot find a working triton installation. Either the package is not installed or it is too old.", "TRITON_GPU_TOO_OLD"},
       }) {
    expect_not_named(n);
  }
}

// NCCL's shared-memory failure says "No space left on device" too: the NCCL cause outranks a full disk.
TEST(GpuRuntimeRanking, NcclShmOutranksDiskFull) {
  Diagnosis d = diagnose(
      "gpu2:2143:2561 [1] include/shm.h:28 NCCL WARN Call to posix_fallocate failed : No space left on device\n"
      "gpu2:2143:2561 [1] include/shm.h:48 NCCL WARN Error while creating shared memory segment nccl-shm-recv-1 (size 9637888)\n");
  EXPECT_EQ(root_id(d), "NCCL_SHM_UNAVAILABLE");
}

}  // namespace
}  // namespace ts::triage::testing
