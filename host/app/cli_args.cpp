// Option parsing for subcommands.
#include "cli_args.hpp"

namespace skipstone {

ParsedArgs parse_args(const std::vector<std::string>& args, const std::set<std::string>& with_value,
                      const std::set<std::string>& flags) {
  ParsedArgs p;
  for (std::size_t i = 0; i < args.size(); ++i) {
    const std::string& a = args[i];
    if (a.rfind("--", 0) == 0) {
      if (p.flags.count(a) || p.values.count(a)) throw UsageError("option " + a + " given more than once");
      if (flags.count(a)) {
        p.flags.insert(a);
      } else if (with_value.count(a)) {
        if (i + 1 >= args.size()) throw UsageError("option " + a + " needs a value");
        p.values[a] = args[++i];
      } else {
        throw UsageError("unknown option " + a);
      }
    } else {
      p.positional.push_back(a);
    }
  }
  return p;
}

}  // namespace skipstone
