// runtime/emulate/include/mma.h — nvcuda::wmma (Tensor Cores' warp matrix
// operations) for emulated kernels, so a student without a GPU can take the
// Tensor Core lesson.
//
// What CUDA documents, and this keeps: fragments of the documented shapes
// (m16n16k16, m32n8k16 and m8n32k16 with half or __nv_bfloat16 inputs and
// float or half accumulators; m16n16k8 with precision::tf32 inputs), loaded,
// multiplied, filled and stored by the whole warp (every *_sync call is a
// warp rendezvous, as __syncwarp), row- or column-major, with a leading
// dimension; `num_elements` and `x[]` for element-wise work on a fragment.
// Which thread holds which element is unspecified in CUDA, and a kernel may
// only apply the same operation to every element; here every thread holds the
// whole tile (num_elements is rows x cols), so such a loop does the same.
//
// How the numbers are made: a product of two half or bfloat16 inputs is
// exact in float, and mma_sync adds the K products of an element in order,
// in float, to the accumulator (a half accumulator is rounded to half once,
// at the end of each mma_sync). A GPU's Tensor Cores add in another order
// with their own internal precision, so results agree to float rounding,
// not bit for bit: lessons compare with a tolerance. tf32 inputs are rounded
// to 10 mantissa bits (__float_to_tf32), as the hardware reads them.
//
// store_matrix_sync writes each element once: lane l writes elements l,
// l + 32, ... (as a warp would share the work), so the emulator's race check
// sees one writer per element.
#ifndef WB_EMU_MMA_H
#define WB_EMU_MMA_H

#include "cuda_emu.h"
#include "cuda_fp16.h"
#include "cuda_bf16.h"

#include <cstring>
#include <type_traits>

namespace nvcuda {
namespace wmma {

struct row_major {};
struct col_major {};
struct matrix_a {};
struct matrix_b {};
struct accumulator {};
enum layout_t { mem_row_major, mem_col_major };

namespace precision {
struct tf32 {};
}  // namespace precision

namespace detail {

template <class Use, int M, int N, int K>
struct tile {
    static constexpr int rows = std::is_same<Use, matrix_b>::value ? K : M;
    static constexpr int cols = std::is_same<Use, matrix_a>::value ? K : N;
};

template <class Use, int M, int N, int K, class T>
constexpr bool supported() {
    return ((M == 16 && N == 16 && K == 16) || (M == 32 && N == 8 && K == 16) || (M == 8 && N == 32 && K == 16)) ||
           (M == 16 && N == 16 && K == 8 &&
            (std::is_same<T, precision::tf32>::value || (std::is_same<Use, accumulator>::value && std::is_same<T, float>::value)));
}

template <class T>
struct storage {
    using type = T;
};
template <>
struct storage<precision::tf32> {
    using type = float;
};

inline float to_float(float v) { return v; }
inline float to_float(__half v) { return __half2float(v); }
inline float to_float(__nv_bfloat16 v) { return __bfloat162float(v); }

template <class T>
inline T from_float(float v);
template <>
inline float from_float<float>(float v) { return v; }
template <>
inline __half from_float<__half>(float v) { return __float2half(v); }
template <>
inline __nv_bfloat16 from_float<__nv_bfloat16>(float v) { return __float2bfloat16(v); }

// A warp rendezvous: every *_sync operation waits for the warp's lanes, as on a GPU.
inline void warp_sync() { __syncwarp(); }

inline unsigned lane() { return wb_emu::self()->lane; }

}  // namespace detail

inline float __float_to_tf32(float v) {
    // Round to nearest, ties away, on the 13 low mantissa bits; NaN and infinity as they are.
    if (!(v == v) || v - v != 0.0f) return v;
    unsigned bits;
    std::memcpy(&bits, &v, 4);
    bits = (bits + 0x1000u) & ~0x1fffu;
    std::memcpy(&v, &bits, 4);
    return v;
}

template <class Use, int M, int N, int K, class T, class Layout = void>
class fragment {
    static_assert(detail::supported<Use, M, N, K, T>(),
                  "this wmma fragment shape is not one CUDA documents (m16n16k16, m32n8k16, m8n32k16; m16n16k8 for tf32)");

public:
    using element_type = typename detail::storage<T>::type;
    static constexpr int rows = detail::tile<Use, M, N, K>::rows;
    static constexpr int cols = detail::tile<Use, M, N, K>::cols;
    static constexpr int num_elements = rows * cols;
    static constexpr int num_storage_elements = num_elements;
    element_type x[num_elements];  // row-major: element (r, c) is x[r * cols + c]
};

template <class Use, int M, int N, int K, class T, class Layout>
inline void fill_fragment(fragment<Use, M, N, K, T, Layout>& f, const typename fragment<Use, M, N, K, T, Layout>::element_type& v) {
    for (int i = 0; i < f.num_elements; ++i) f.x[i] = v;
}

// matrix_a / matrix_b: the layout is the fragment's.
template <class Use, int M, int N, int K, class T, class Layout, class P>
inline void load_matrix_sync(fragment<Use, M, N, K, T, Layout>& f, const P* p, unsigned ldm) {
    static_assert(!std::is_same<Use, accumulator>::value, "an accumulator's load_matrix_sync takes a layout_t");
    detail::warp_sync();
    using F = fragment<Use, M, N, K, T, Layout>;
    for (int r = 0; r < F::rows; ++r)
        for (int c = 0; c < F::cols; ++c) {
            const P v = std::is_same<Layout, col_major>::value ? p[c * ldm + r] : p[r * ldm + c];
            f.x[r * F::cols + c] = v;
        }
    detail::warp_sync();
}

// accumulator: the memory's layout is given.
template <int M, int N, int K, class T, class P>
inline void load_matrix_sync(fragment<accumulator, M, N, K, T>& f, const P* p, unsigned ldm, layout_t layout) {
    detail::warp_sync();
    using F = fragment<accumulator, M, N, K, T>;
    for (int r = 0; r < F::rows; ++r)
        for (int c = 0; c < F::cols; ++c) f.x[r * F::cols + c] = layout == mem_col_major ? p[c * ldm + r] : p[r * ldm + c];
    detail::warp_sync();
}

template <int M, int N, int K, class T, class P>
inline void store_matrix_sync(P* p, const fragment<accumulator, M, N, K, T>& f, unsigned ldm, layout_t layout) {
    detail::warp_sync();
    using F = fragment<accumulator, M, N, K, T>;
    for (int i = static_cast<int>(detail::lane()); i < F::num_elements; i += 32) {
        const int r = i / F::cols, c = i % F::cols;
        (layout == mem_col_major ? p[c * ldm + r] : p[r * ldm + c]) = f.x[i];
    }
    detail::warp_sync();
}

// d = a * b + c: each element's K products added in order, in float.
template <int M, int N, int K, class TA, class LA, class TB, class LB, class TC, class TD>
inline void mma_sync(fragment<accumulator, M, N, K, TD>& d, const fragment<matrix_a, M, N, K, TA, LA>& a,
                     const fragment<matrix_b, M, N, K, TB, LB>& b, const fragment<accumulator, M, N, K, TC>& c) {
    static_assert(std::is_same<TA, TB>::value, "wmma::mma_sync: a and b must hold the same type");
    detail::warp_sync();
    constexpr bool tf32 = std::is_same<TA, precision::tf32>::value;
    typename fragment<accumulator, M, N, K, TD>::element_type out[M * N];
    for (int i = 0; i < M; ++i)
        for (int j = 0; j < N; ++j) {
            float acc = detail::to_float(c.x[i * N + j]);
            for (int k = 0; k < K; ++k) {
                float x = detail::to_float(a.x[i * K + k]), y = detail::to_float(b.x[k * N + j]);
                if (tf32) x = __float_to_tf32(x), y = __float_to_tf32(y);
                acc += x * y;
            }
            out[i * N + j] = detail::from_float<typename fragment<accumulator, M, N, K, TD>::element_type>(acc);
        }
    for (int i = 0; i < M * N; ++i) d.x[i] = out[i];
    detail::warp_sync();
}

}  // namespace wmma
}  // namespace nvcuda

#endif  // WB_EMU_MMA_H
