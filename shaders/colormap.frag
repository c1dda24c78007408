#version 330 core
// shaders/colormap.frag — one float per pixel (R32F) mapped to a colour.
// value lo maps to the map's first colour, hi to its last; NaN shows
// u_nan_colour so an unwritten (poisoned) cell is never mistaken for a small value.
// The colours are not written here: u_table is colour_table() from
// app/widgets/buffer_view.cpp, one row per map (u_map: 0 = viridis-like,
// 1 = diverging blue-white-red, 2 = gray), read with texelFetch at the same
// index the CPU path uses (colour_index: t * (size - 1) + 0.5, truncated).
in vec2 uv;
out vec4 frag_colour;

uniform sampler2D u_values;
uniform float u_lo;
uniform float u_hi;
uniform int u_map;
uniform sampler2D u_table;
uniform vec4 u_nan_colour;

void main() {
    float v = texture(u_values, uv).r;
    if (isnan(v)) {
        frag_colour = u_nan_colour;
        return;
    }
    float span = u_hi - u_lo;
    float t = span > 0.0 ? (v - u_lo) / span : 0.5;
    int last = textureSize(u_table, 0).x - 1;
    int i = int(clamp(t, 0.0, 1.0) * float(last) + 0.5);
    frag_colour = texelFetch(u_table, ivec2(i, u_map), 0);
}
