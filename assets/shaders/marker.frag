#version 330 core
// Shapes drawn analytically, anti-aliased with fwidth:
// 0 disc, 1 ring, 2 square outline, 3 cross, 4 soft shadow, 5 filled square, 6 thick ring.
in vec2 v_corner;
in vec4 v_color;
flat in int v_shape;
out vec4 frag;
void main() {
    float r = length(v_corner);
    float fw = max(fwidth(r), 1e-4);
    float a = 0.0;
    if (v_shape == 0) {
        a = clamp((1.0 - r) / fw, 0.0, 1.0);
    } else if (v_shape == 1 || v_shape == 6) {
        float t = v_shape == 1 ? 0.22 : 0.34;
        a = clamp((1.0 - r) / fw, 0.0, 1.0) * clamp((r - (1.0 - t)) / fw, 0.0, 1.0);
    } else if (v_shape == 2) {
        float m = max(abs(v_corner.x), abs(v_corner.y));
        float fm = max(fwidth(m), 1e-4);
        a = clamp((1.0 - m) / fm, 0.0, 1.0) * clamp((m - 0.74) / fm, 0.0, 1.0);
    } else if (v_shape == 3) {
        float d = min(abs(v_corner.x - v_corner.y), abs(v_corner.x + v_corner.y)) * 0.7071;
        float fd = max(fwidth(d), 1e-4);
        a = clamp((0.16 - d) / fd, 0.0, 1.0) * clamp((0.95 - r) / fw, 0.0, 1.0);
    } else if (v_shape == 4) {
        a = exp(-3.6 * r * r) * (1.0 - smoothstep(0.85, 1.0, r));
    } else {
        float m = max(abs(v_corner.x), abs(v_corner.y));
        float fm = max(fwidth(m), 1e-4);
        a = clamp((1.0 - m) / fm, 0.0, 1.0);
    }
    if (a <= 0.003) discard;
    frag = vec4(v_color.rgb, v_color.a * a);
}
