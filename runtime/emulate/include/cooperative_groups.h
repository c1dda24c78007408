// runtime/emulate/include/cooperative_groups.h — the toolkit's cooperative groups, as far as a block goes.
//
// thread_block and thread_block_tile<N> (N a power of two up to 32), and
// cg::reduce / cg::inclusive_scan over a tile (which CUDA declares in
// cooperative_groups/reduce.h and scan.h; those files include this one), are
// built on __syncthreads and the warp operations of cuda_emu.h. There is no
// this_grid() or grid_group: the emulator refuses grid-wide sync before it
// compiles (refuse.hpp), and a kernel that names them gets that message.
#pragma once
#include "cuda_emu.h"

namespace cooperative_groups {

namespace details {
inline unsigned int block_rank()
{
    return (threadIdx.z * blockDim.y + threadIdx.y) * blockDim.x + threadIdx.x;
}
inline unsigned int block_size() { return blockDim.x * blockDim.y * blockDim.z; }
}  // namespace details

class thread_block {
public:
    void sync() const { __syncthreads(); }
    static void barrier_wait() { __syncthreads(); }
    unsigned long long thread_rank() const { return details::block_rank(); }
    unsigned long long size() const { return details::block_size(); }
    unsigned long long num_threads() const { return details::block_size(); }
    dim3 group_index() const { return blockIdx; }
    dim3 thread_index() const { return threadIdx; }
    dim3 group_dim() const { return blockDim; }
    dim3 dim_threads() const { return blockDim; }
};

inline thread_block this_thread_block() { return thread_block(); }

template <unsigned int Size>
class thread_block_tile {
    static_assert(Size >= 1 && Size <= 32 && (Size & (Size - 1)) == 0,
                  "tiled_partition: the size must be a power of two, at most 32");

public:
    static constexpr unsigned int kSize = Size;

    // The lanes of this tile within the warp.
    static unsigned int mask()
    {
        const unsigned int lanes = Size == 32 ? 0xffffffffu : ((1u << Size) - 1u);
        return lanes << (wb_emu::self()->lane & ~(Size - 1u));
    }

    void sync() const { __syncwarp(mask()); }
    unsigned long long thread_rank() const { return details::block_rank() & (Size - 1u); }
    static constexpr unsigned long long size() { return Size; }
    static constexpr unsigned long long num_threads() { return Size; }
    unsigned long long meta_group_rank() const { return details::block_rank() / Size; }
    unsigned long long meta_group_size() const { return (details::block_size() + Size - 1) / Size; }

    template <class T> T shfl(T var, int src_rank) const { return __shfl_sync(mask(), var, src_rank, Size); }
    template <class T> T shfl_up(T var, unsigned int delta) const { return __shfl_up_sync(mask(), var, delta, Size); }
    template <class T> T shfl_down(T var, unsigned int delta) const { return __shfl_down_sync(mask(), var, delta, Size); }
    template <class T> T shfl_xor(T var, unsigned int lane_mask) const
    {
        return __shfl_xor_sync(mask(), var, static_cast<int>(lane_mask), Size);
    }
    // Votes answer for this tile: ballot's bit i is the tile's rank i.
    unsigned int ballot(int predicate) const
    {
        return (__ballot_sync(mask(), predicate) & mask()) >> (wb_emu::self()->lane & ~(Size - 1u));
    }
    int any(int predicate) const { return ballot(predicate) != 0; }
    int all(int predicate) const
    {
        unsigned int arrived = 0;
        const unsigned int bits = wb_emu::ballot(mask(), predicate != 0, &arrived);
        return bits == arrived;
    }
    template <class T> unsigned int match_any(T value) const
    {
        return __match_any_sync(mask(), value) >> (wb_emu::self()->lane & ~(Size - 1u));
    }
};

template <unsigned int Size, class Parent>
inline thread_block_tile<Size> tiled_partition(const Parent&)
{
    return thread_block_tile<Size>();
}

inline void sync(const thread_block& g) { g.sync(); }
template <unsigned int Size>
inline void sync(const thread_block_tile<Size>& g) { g.sync(); }
template <class Group>
inline unsigned long long thread_rank(const Group& g) { return g.thread_rank(); }
template <class Group>
inline unsigned long long group_size(const Group& g) { return g.size(); }

// What CUDA declares in <cooperative_groups/reduce.h> and <cooperative_groups/scan.h>.
template <class T> struct plus { T operator()(const T& a, const T& b) const { return a + b; } };
template <class T> struct less { T operator()(const T& a, const T& b) const { return b < a ? b : a; } };
template <class T> struct greater { T operator()(const T& a, const T& b) const { return a < b ? b : a; } };
template <class T> struct bit_and { T operator()(const T& a, const T& b) const { return a & b; } };
template <class T> struct bit_or { T operator()(const T& a, const T& b) const { return a | b; } };
template <class T> struct bit_xor { T operator()(const T& a, const T& b) const { return a ^ b; } };

// Every rank of the tile gets op over all ranks' values (a butterfly).
template <unsigned int Size, class T, class Op>
inline T reduce(const thread_block_tile<Size>& tile, T value, Op op)
{
    for (unsigned int offset = Size / 2; offset > 0; offset /= 2) {
        value = op(value, tile.shfl_xor(value, offset));
    }
    return value;
}

// Rank i gets op over ranks 0..i.
template <unsigned int Size, class T, class Op>
inline T inclusive_scan(const thread_block_tile<Size>& tile, T value, Op op)
{
    for (unsigned int offset = 1; offset < Size; offset *= 2) {
        const T other = tile.shfl_up(value, offset);
        if (tile.thread_rank() >= offset) value = op(other, value);
    }
    return value;
}

}  // namespace cooperative_groups
