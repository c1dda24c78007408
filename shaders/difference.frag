#version 330 core
// shaders/difference.frag — |a - b| of two R32F textures (GPU and CPU results)
// as a heat map: 0 is black, rising through blue to pale cyan at u_hi.
// Cells whose difference exceeds u_tol are painted solid red so a single bad
// pixel stays visible when the view is zoomed out; so are pixels set in
// u_mask when u_use_mask is 1 (the app passes the check's own per-element
// verdict, atol + rtol*|cpu|, there). NaN on either side (an unwritten or
// invalid cell) is otherwise magenta.
// Keep in step with difference_rgba() in app/widgets/buffer_view.cpp.
in vec2 uv;
out vec4 frag_colour;

uniform sampler2D u_a;
uniform sampler2D u_b;
uniform float u_hi;
uniform float u_tol;
uniform sampler2D u_mask;
uniform int u_use_mask;

// Blue, not red or yellow, so a within-tolerance difference never looks like a mismatch.
vec3 heat(float t) {
    t = clamp(t, 0.0, 1.0);
    return vec3(0.55 * t * t, 0.85 * t, 0.25 * t + 0.75 * sqrt(t));
}

void main() {
    if (u_use_mask != 0 && texture(u_mask, uv).r > 0.5) {
        frag_colour = vec4(1.0, 0.15, 0.1, 1.0);
        return;
    }
    float a = texture(u_a, uv).r;
    float b = texture(u_b, uv).r;
    if (isnan(a) || isnan(b)) {
        frag_colour = vec4(1.0, 0.0, 1.0, 1.0);
        return;
    }
    float d = abs(a - b);
    if (d > u_tol) {
        frag_colour = vec4(1.0, 0.15, 0.1, 1.0);
        return;
    }
    frag_colour = vec4(heat(u_hi > 0.0 ? d / u_hi : 0.0), 1.0);
}
