"""tests/tools/fake_cupy/cupy — a stand-in for CuPy on a machine without a GPU, so that CI runs
every exported CuPy file (runtime/export/python_export.hpp) from its params to its check.

Arrays stay NumPy arrays; RawModule compiles nothing and its kernels run nothing, but each launch
is checked as CuPy would take it (a grid and a block of three positive ints, arguments that are
arrays or NumPy scalars, a shared-memory size >= 0) and recorded in LAUNCHES. Outputs are then
still as the file poisoned them, so the check at the end must report them (or find them right,
for an output the lesson fills). The real run is bench/device/export_proof.sh's, on a GPU."""
import numpy as _np

LAUNCHES = []


def asarray(a):
    return _np.array(a, copy=True)


def asnumpy(a):
    return _np.array(a, copy=True)


class _Kernel:
    def __init__(self, name):
        self.name = name

    def __call__(self, grid, block, args, shared_mem=0):
        for what, dims in (("grid", grid), ("block", block)):
            if len(dims) != 3 or not all(isinstance(d, int) and d >= 1 for d in dims):
                raise ValueError(f"{self.name}: {what} {dims!r} is not three positive ints")
        if not isinstance(args, tuple):
            raise TypeError(f"{self.name}: args must be a tuple")
        for a in args:
            if not isinstance(a, (_np.ndarray, _np.generic)):
                raise TypeError(f"{self.name}: argument {a!r} is neither an array nor a NumPy scalar")
        if not isinstance(shared_mem, int) or shared_mem < 0:
            raise ValueError(f"{self.name}: shared_mem {shared_mem!r}")
        LAUNCHES.append((self.name, grid, block, shared_mem))


class _Global:
    ptr = 0


class RawModule:
    def __init__(self, code, options=(), name_expressions=()):
        if "__global__" not in code:
            raise ValueError("no kernel in the code")
        self.names = set(name_expressions)

    def get_function(self, name):
        if name not in self.names:
            raise KeyError(f"{name} was not among the name expressions {sorted(self.names)}")
        return _Kernel(name)

    def get_global(self, name):
        return _Global()


class _Device:
    def synchronize(self):
        print(f"(fake cupy: {len(LAUNCHES)} launch(es) checked, none run)")


class _Runtime:
    memcpyHostToDevice = 1

    @staticmethod
    def memcpy(dst, src, size, kind):
        pass


class cuda:  # noqa: N801 - cupy.cuda
    Device = _Device
    runtime = _Runtime

    @staticmethod
    def get_cuda_path():
        return None  # as CuPy does where it finds no toolkit
