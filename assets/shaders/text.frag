#version 330 core
in vec2 v_uv;
uniform sampler2D u_glyphs;
uniform vec4 u_color;
out vec4 frag;
void main() {
    float a = texture(u_glyphs, v_uv).a;
    if (a <= 0.01) discard;
    frag = vec4(u_color.rgb, u_color.a * a);
}
