#version 330 core
// shaders/difference.frag — |a - b| of two R32F textures (GPU and CPU results)
// as a heat map through row u_row of u_table (colour_table() from
// app/widgets/buffer_view.cpp: 0 is black, rising through blue to pale cyan
// at u_hi), read at the same index as the CPU path's difference_rgba().
// Cells whose difference exceeds u_tol are painted u_mismatch_colour so a
// single bad pixel stays visible when the view is zoomed out; so are pixels
// set in u_mask when u_use_mask is 1 (the app passes the check's own
// per-element verdict, atol + rtol*|cpu|, there). NaN on either side (an
// unwritten or invalid cell) is otherwise u_nan_colour.
in vec2 uv;
out vec4 frag_colour;

uniform sampler2D u_a;
uniform sampler2D u_b;
uniform float u_hi;
uniform float u_tol;
uniform sampler2D u_mask;
uniform int u_use_mask;
uniform sampler2D u_table;
uniform int u_row;
uniform vec4 u_nan_colour;
uniform vec4 u_mismatch_colour;

void main() {
    if (u_use_mask != 0 && texture(u_mask, uv).r > 0.5) {
        frag_colour = u_mismatch_colour;
        return;
    }
    float a = texture(u_a, uv).r;
    float b = texture(u_b, uv).r;
    if (isnan(a) || isnan(b)) {
        frag_colour = u_nan_colour;
        return;
    }
    float d = abs(a - b);
    if (d > u_tol) {
        frag_colour = u_mismatch_colour;
        return;
    }
    float t = u_hi > 0.0 ? d / u_hi : 0.0;
    int last = textureSize(u_table, 0).x - 1;
    int i = int(clamp(t, 0.0, 1.0) * float(last) + 0.5);
    frag_colour = texelFetch(u_table, ivec2(i, u_row), 0);
}
