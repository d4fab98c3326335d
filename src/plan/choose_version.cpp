// The version string the build gets (PYTORCH_BUILD_VERSION/NUMBER) instead of X.Y.Za0+git<sha>.
//
// Scheme: <release>+cu<MAJOR><MINOR> for a build with the official arch list (the official
// wheels' own label), <release>+cu<MM>.sm<NN>[.sm<NN>...] when the list differs (what the wheel
// can run on is in its name), <release>+cpu for CPU builds. Conda versions carry no local label
// (conda has the build string for that).
#include "plan/resolve_ctx.h"

namespace ts::plan::detail {

namespace {
std::string local_label(const Ctx& c) {
  const Version* v = c.p.cuda.version();
  if (!c.cuda_on || !v) return "cpu";
  std::string label = c.p.cuda.cu_tag();
  const PortableList* off = c.in->build.portable_for(*v, c.torch_version());
  if (off && ArchList::parse(off->arches) == c.arches) return label;
  for (const auto& a : c.arches.arches()) label += ".sm" + a.sass_only().number();
  return label;
}

}  // namespace

void choose_version(Ctx& c) {
  if (c.skipped_for_cuda("version", "the version label (PYTORCH_BUILD_VERSION, +cu<XY>)")) return;
  std::string local = local_label(c);
  bool conda = c.spec().wants("conda");
  c.p.build_version = conda ? c.version() : c.version() + "+" + local;
  c.set_env("PYTORCH_BUILD_VERSION", c.p.build_version,
            conda ? "conda versions carry no '+local' label; the build string names CUDA and cuDNN"
                  : "a clean version instead of " + c.version() + "a0+git<sha>: the release, '+" + local +
                        "' for the CUDA" + (local.find(".sm") != std::string::npos ? " and the arches it runs on" : ""));
  c.set_env("PYTORCH_BUILD_NUMBER", "1", "required with PYTORCH_BUILD_VERSION; 1 adds no .post suffix");
}

}  // namespace ts::plan::detail
