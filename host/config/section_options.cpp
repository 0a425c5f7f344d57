// Config section "options" (docs/config.md "Options"): precision and its kernels, tolerances,
// the integrator's step budget and the chunk size, with the defaults each precision has.
#include <string>

#include "config_sections.hpp"

namespace skipstone {
namespace {

// A value that must satisfy `ok`; `allowed` says what is.
void check_option(bool ok, const char* key, double v, const char* allowed) {
  if (!ok) throw ConfigError(std::string("options.") + key, "value " + number_text(v) + " is out of range; allowed: " + allowed);
}

}  // namespace

void read_options(JsonReader opt, RunConfig& rc) {
  ScanSpec& spec = rc.spec;
  const std::string precision = opt.string_or("precision", "double");
  if (precision != "double" && precision != "float")
    throw ConfigError("options.precision", "value \"" + precision + "\" is not allowed; allowed: double, float");
  const bool in_float = precision == "float";
  if (in_float && !rc.system.traits.float_kernel)
    throw ConfigError("options.precision", "float has a kernel only for systems " +
                                               systems_with([](const SystemTraits& t) { return t.float_kernel; }) +
                                               "; allowed for system " + rc.system.name + ": double");
  spec.precision = in_float ? Precision::float32 : Precision::float64;
  if (in_float && (spec.params[P_NOISE] != 0.0 || find_axis(rc, "noise")))
    throw ConfigError("parameters.noise", "noisy constraints run in double only; allowed with precision float: 0 "
                                          "(or give options.precision double)");
  // a float run's energy defect is some tens of float roundings: its own default
  spec.energy_tolerance = opt.number_or("energy_tolerance", in_float ? kFloatEnergyTolerance : 1e-9);
  spec.bounded_depth = opt.number_or("bounded_depth", 1.0);
  spec.corner_tolerance = opt.number_or("corner_tolerance", 1e-9);
  // float resolves relative errors of ~1e-7: its defaults are the measured bench setting
  const double default_tol = in_float ? kFloatDefaultTolerance : 1e-12;
  spec.rtol = opt.number_or("rtol", default_tol);
  spec.atol = opt.number_or("atol", default_tol);
  spec.max_steps = opt.integer_or("max_steps", 1000000, 1);
  rc.chunk_size = opt.integer_or("chunk_size", 0);
  opt.finish();
  check_option(spec.energy_tolerance > 0.0, "energy_tolerance", spec.energy_tolerance, "> 0");
  check_option(spec.bounded_depth >= 0.0, "bounded_depth", spec.bounded_depth, ">= 0");
  check_option(spec.corner_tolerance >= 0.0 && spec.corner_tolerance < 0.1, "corner_tolerance", spec.corner_tolerance, "in [0, 0.1)");
  check_option(spec.rtol > 0.0 && spec.rtol < 1.0, "rtol", spec.rtol, "in (0, 1)");
  check_option(spec.atol > 0.0, "atol", spec.atol, "> 0");
  if (in_float && spec.rtol < kFloatMinTolerance)
    throw ConfigError("options.rtol", "value " + number_text(spec.rtol) + " is below what float resolves; allowed with precision float: in [1e-5, 1)");
  if (in_float && spec.atol < kFloatMinTolerance)
    throw ConfigError("options.atol", "value " + number_text(spec.atol) + " is below what float resolves; allowed with precision float: >= 1e-5");
  rc.resolved["options"] = {{"energy_tolerance", spec.energy_tolerance}, {"bounded_depth", spec.bounded_depth},
                            {"corner_tolerance", spec.corner_tolerance}, {"precision", precision}, {"rtol", spec.rtol},
                            {"atol", spec.atol}, {"max_steps", spec.max_steps}, {"chunk_size", rc.chunk_size}};
}

}  // namespace skipstone
