extern "C" __global__ void brighten(const unsigned char* in, float* out, int h, int w, float gain)
{
    int x = blockIdx.x * blockDim.x + threadIdx.x;
    int y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x >= w || y >= h) return;
    for (int c = 0; c < 3; ++c) {
        int i = (y * w + x) * 3 + c;
        out[i] = gain * in[i];
    }
}
