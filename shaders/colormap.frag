#version 330 core
// shaders/colormap.frag — one float per pixel (R32F) mapped to a colour.
// value lo maps to the map's first colour, hi to its last; NaN shows magenta
// so an unwritten (poisoned) cell is never mistaken for a small value.
// u_map: 0 = viridis-like (sequential), 1 = diverging blue-white-red, 2 = gray.
// Keep the control points in step with colormap_rgba() in app/widgets/buffer_view.cpp.
in vec2 uv;
out vec4 frag_colour;

uniform sampler2D u_values;
uniform float u_lo;
uniform float u_hi;
uniform int u_map;

vec3 viridis(float t) {
    const vec3 c0 = vec3(0.267, 0.005, 0.329);
    const vec3 c1 = vec3(0.231, 0.322, 0.545);
    const vec3 c2 = vec3(0.129, 0.569, 0.549);
    const vec3 c3 = vec3(0.369, 0.788, 0.384);
    const vec3 c4 = vec3(0.992, 0.906, 0.145);
    float s = clamp(t, 0.0, 1.0) * 4.0;
    if (s < 1.0) return mix(c0, c1, s);
    if (s < 2.0) return mix(c1, c2, s - 1.0);
    if (s < 3.0) return mix(c2, c3, s - 2.0);
    return mix(c3, c4, s - 3.0);
}

vec3 diverging(float t) {
    const vec3 lo = vec3(0.230, 0.299, 0.754);
    const vec3 mid = vec3(0.865, 0.865, 0.865);
    const vec3 hi = vec3(0.706, 0.016, 0.150);
    float s = clamp(t, 0.0, 1.0);
    return s < 0.5 ? mix(lo, mid, s * 2.0) : mix(mid, hi, s * 2.0 - 1.0);
}

vec3 apply_map(float t) {
    if (u_map == 1) return diverging(t);
    if (u_map == 2) return vec3(clamp(t, 0.0, 1.0));
    return viridis(t);
}

void main() {
    float v = texture(u_values, uv).r;
    if (isnan(v)) {
        frag_colour = vec4(1.0, 0.0, 1.0, 1.0);
        return;
    }
    float span = u_hi - u_lo;
    float t = span > 0.0 ? (v - u_lo) / span : 0.5;
    frag_colour = vec4(apply_map(t), 1.0);
}
