#version 330 core
// Ray-ellipsoid intersection per pixel: exact, anti-aliased silhouettes at any zoom, correct depth,
// Blinn-Phong lighting: polished slate for Black, shell for White (told apart by albedo).
in vec3 v_world;
flat in vec3 v_center;
flat in vec4 v_color;
uniform mat4 u_view_proj;
uniform vec3 u_radii;
uniform vec3 u_light;
uniform vec3 u_eye;
out vec4 frag;
void main() {
    vec3 dir = normalize(v_world - u_eye);
    vec3 o = (u_eye - v_center) / u_radii;
    vec3 d = dir / u_radii;
    float a = dot(d, d);
    float b = dot(o, d);
    float c = dot(o, o) - 1.0;
    float disc = b * b - a * c;
    // anti-aliased silhouette: coverage from the ray's closest approach to the (unit) stone
    float dmin = sqrt(max(dot(o, o) - b * b / a, 0.0));
    float cover = clamp((1.0 - dmin) / max(fwidth(dmin), 1e-5) + 0.5, 0.0, 1.0);
    if (cover <= 0.0) discard;
    float t = (-b - sqrt(max(disc, 0.0))) / a;
    vec3 hit = u_eye + t * dir;
    vec3 local = hit - v_center;
    if (local.y < -u_radii.y * 0.98) discard;
    vec3 n = normalize(local / (u_radii * u_radii));
    vec4 clip = u_view_proj * vec4(hit, 1.0);
    gl_FragDepth = clamp(clip.z / clip.w * 0.5 + 0.5, 0.0, 1.0);

    vec3 l = normalize(u_light);
    vec3 v = -dir;
    vec3 h = normalize(l + v);
    float white = step(0.5, v_color.r);
    float diff = max(dot(n, l), 0.0);
    float spec = pow(max(dot(n, h), 0.0), mix(60.0, 32.0, white)) * mix(0.50, 0.26, white);
    float rim = pow(1.0 - max(dot(n, v), 0.0), 3.0) * mix(0.10, 0.05, white);
    float contact = smoothstep(-u_radii.y, 0.02, local.y) * 0.35 + 0.65;
    vec3 col = v_color.rgb * (0.32 + 0.75 * diff) * contact + vec3(spec + rim);
    frag = vec4(col, v_color.a * cover);
}
