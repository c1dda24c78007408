#version 330 core
// shaders/colormap.vert — a full-screen triangle made from gl_VertexID alone
// (no vertex buffer: the caller binds an empty VAO and draws 3 vertices).
// uv runs 0..1 with v = 0 at the image's first row, matching how the views
// upload rows (row 0 first) and how ImGui::Image shows them.
out vec2 uv;

void main() {
    vec2 p = vec2(float((gl_VertexID << 1) & 2), float(gl_VertexID & 2));
    uv = p;
    gl_Position = vec4(p * 2.0 - 1.0, 0.0, 1.0);
}
