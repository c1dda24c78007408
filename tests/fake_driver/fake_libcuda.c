/* tests/fake_driver/fake_libcuda.c — a stand-in for the NVIDIA driver's libcuda.so.1, built as
 * libcuda.so.1 in a folder of its own, so tests can see which file the driver lookup
 * (runtime/driver/driver_library.hpp) loads. It exports cuInit and nothing else, so a Driver
 * that opens it reports the entry points it is missing: proof that this file was the one opened. */
int cuInit(unsigned flags) {
    (void)flags;
    return 100; /* CUDA_ERROR_NO_DEVICE */
}
