#version 330 core
in vec3 vNormalView;
in vec4 vColor;

uniform bool uLit;  // bones are shaded by the headlight, grid lines are not
out vec4 fragColor;

void main() {
  float shade = 1.0;
  if (uLit) shade = 0.45 + 0.55 * abs(normalize(vNormalView).z);
  fragColor = vec4(vColor.rgb * shade, vColor.a);
}
