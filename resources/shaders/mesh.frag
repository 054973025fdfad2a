#version 330 core
in vec3 vNormalView;
in vec2 vTexCoord;

uniform vec4 uBaseColor;     // linear RGBA from the material
uniform bool uHasTexture;
uniform sampler2D uTexture;  // sRGB texture: sampling returns linear values
uniform float uAmbient;

out vec4 fragColor;

void main() {
  vec3 normal = normalize(vNormalView);
  // Headlight: the light sits at the eye, so in view space it shines along -Z and the
  // Lambert term is the normal's Z. abs() lights back faces too (open or flipped meshes).
  float lambert = abs(normal.z);
  vec4 base = uBaseColor;
  if (uHasTexture) base *= texture(uTexture, vTexCoord);
  vec3 linear = base.rgb * (uAmbient + (1.0 - uAmbient) * lambert);
  fragColor = vec4(pow(linear, vec3(1.0 / 2.2)), 1.0);  // linear → display
}
