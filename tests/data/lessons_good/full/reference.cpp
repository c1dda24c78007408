// CPU reference for step 1: the same parameter list as the kernel.
void brighten_ref(const uint8_t* in, float* out, int32_t h, int32_t w, float gain)
{
    for (int32_t i = 0; i < h * w * 3; ++i) out[i] = gain * in[i];
}
