// docs/config.md against the catalogue the config parser uses (systems.hpp, observables.hpp):
// every system id has a section "### `id`" whose tables list exactly the schema's parameters
// and start keys with their defaults and allowed ranges, its default start and its observables,
// and the observable table names exactly the observables some system allows. A parameter,
// start key, system or observable added to the code without a line in docs/config.md fails here.
// The complete configs shown in README.md and docs/config.md (```json blocks that start with
// '{') must parse, so that a user can copy them.
#include <gtest/gtest.h>

#include <fstream>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "config.hpp"
#include "observables.hpp"
#include "systems.hpp"

namespace {

using skipstone::ParamRule;

struct Row {
  std::string default_text, allowed;
};

struct SystemDoc {
  std::map<std::string, Row> parameters;                            // by name
  std::map<std::pair<std::string, std::string>, Row> start_keys;   // by (start, key)
  std::string default_start;
  std::vector<std::string> observables;
  bool has_parameter_table = false, has_start_table = false;
};

struct ConfigDoc {
  std::map<std::string, SystemDoc> systems;
  std::set<std::string> catalogue;  // the observable table's names
};

std::string trim(const std::string& s) {
  const auto b = s.find_first_not_of(" \t");
  if (b == std::string::npos) return "";
  return s.substr(b, s.find_last_not_of(" \t") - b + 1);
}

// `name` -> name
std::string unquote(const std::string& s) {
  const std::string t = trim(s);
  return t.size() >= 2 && t.front() == '`' && t.back() == '`' ? t.substr(1, t.size() - 2) : t;
}

// "| a | b | c |" -> {"a", "b", "c"}; the cells of the config tables hold no '|'.
std::vector<std::string> cells(const std::string& line) {
  std::vector<std::string> out;
  std::string cell;
  for (std::size_t i = 1; i < line.size(); ++i) {
    if (line[i] == '|') {
      out.push_back(trim(cell));
      cell.clear();
    } else {
      cell += line[i];
    }
  }
  return out;
}

// The backquoted words of a line: "Observables: `a`, `b`." -> {"a", "b"}.
std::vector<std::string> quoted_words(const std::string& line) {
  std::vector<std::string> out;
  std::size_t pos = 0;
  while ((pos = line.find('`', pos)) != std::string::npos) {
    const std::size_t end = line.find('`', pos + 1);
    if (end == std::string::npos) break;
    out.push_back(line.substr(pos + 1, end - pos - 1));
    pos = end + 1;
  }
  return out;
}

std::string read_text(const std::string& relative_path) {
  const std::string path = std::string(SKIPSTONE_SOURCE_DIR) + "/" + relative_path;
  std::ifstream in(path);
  EXPECT_TRUE(in.good()) << "cannot open " << path;
  std::ostringstream os;
  os << in.rdbuf();
  return os.str();
}

// The ```json blocks of a markdown text that hold a whole config (they start with '{').
std::vector<std::string> config_blocks(const std::string& text) {
  std::vector<std::string> out;
  std::size_t pos = 0;
  while ((pos = text.find("```json\n", pos)) != std::string::npos) {
    const std::size_t begin = pos + 8, end = text.find("```", begin);
    if (end == std::string::npos) break;
    const std::string block = text.substr(begin, end - begin);
    if (trim(block).rfind("{", 0) == 0) out.push_back(block);
    pos = end + 3;
  }
  return out;
}

ConfigDoc read_config_doc() {
  const std::string path = std::string(SKIPSTONE_SOURCE_DIR) + "/docs/config.md";
  std::ifstream in(path);
  EXPECT_TRUE(in.good()) << "cannot open " << path;
  ConfigDoc doc;
  SystemDoc* current = nullptr;
  enum class Table { none, parameters, starts, catalogue } table = Table::none;
  std::string line;
  while (std::getline(in, line)) {
    if (line.rfind("#", 0) == 0) {
      table = Table::none;
      current = nullptr;
      if (line.rfind("### `", 0) == 0) current = &doc.systems[unquote(line.substr(4))];
      continue;
    }
    if (line.rfind("|", 0) != 0) {
      table = Table::none;
      if (current && line.rfind("Default start:", 0) == 0) {
        const auto w = quoted_words(line);
        if (!w.empty()) current->default_start = w[0];
      }
      if (current && line.rfind("Observables:", 0) == 0) current->observables = quoted_words(line);
      continue;
    }
    const std::vector<std::string> c = cells(line);
    if (c.empty() || c[0].rfind("---", 0) == 0) continue;
    if (c[0] == "parameter" && c.size() == 3 && current) {
      table = Table::parameters;
      current->has_parameter_table = true;
      continue;
    }
    if (c[0] == "start" && c.size() == 4 && current) {
      table = Table::starts;
      current->has_start_table = true;
      continue;
    }
    if (c[0] == "observable" && !current) {
      table = Table::catalogue;
      continue;
    }
    if (table == Table::parameters && c.size() == 3) {
      current->parameters[unquote(c[0])] = {c[1], c[2]};
    } else if (table == Table::starts && c.size() == 4) {
      current->start_keys[{unquote(c[0]), unquote(c[1])}] = {c[2], c[3]};
    } else if (table == Table::catalogue) {
      for (const auto& name : quoted_words(c[0])) doc.catalogue.insert(name);
    }
  }
  return doc;
}

// The default as docs/config.md writes it: "required", or the number (compared as a number).
void expect_default(const ParamRule& rule, const std::string& text, const std::string& where) {
  if (!rule.fallback) {
    EXPECT_EQ(text, "required") << where << ": the code has no default (required key)";
    return;
  }
  double documented = 0.0;
  std::istringstream is(text);
  const bool number = static_cast<bool>(is >> documented) && is.peek() == std::char_traits<char>::eof();
  EXPECT_TRUE(number && documented == *rule.fallback)
      << where << ": docs/config.md says default " << text << ", the code " << *rule.fallback;
}

const ConfigDoc& doc() {
  static const ConfigDoc d = read_config_doc();
  return d;
}

TEST(ConfigDocs, EverySystemHasASectionAndNoOtherIsDocumented) {
  std::set<std::string> code;
  for (const auto& n : skipstone::system_names()) {
    code.insert(n);
    EXPECT_TRUE(doc().systems.count(n)) << "system " << n << " has no section \"### `" << n << "`\" in docs/config.md";
  }
  for (const auto& [name, sys] : doc().systems)
    EXPECT_TRUE(code.count(name)) << "docs/config.md documents system " << name << ", which the code does not know";
}

TEST(ConfigDocs, ParametersMatchTheSchema) {
  for (const auto& n : skipstone::system_names()) {
    if (!doc().systems.count(n)) continue;
    const SystemDoc& d = doc().systems.at(n);
    const skipstone::SystemSchema s = skipstone::system_schema(n);
    EXPECT_TRUE(d.has_parameter_table) << n << ": no \"| parameter | default | allowed |\" table";
    for (const auto& rule : s.parameters) {
      const std::string where = n + ", parameter " + rule.name;
      const auto it = d.parameters.find(rule.name);
      if (it == d.parameters.end()) {
        ADD_FAILURE() << where << " is not in docs/config.md";
        continue;
      }
      expect_default(rule, it->second.default_text, where);
      EXPECT_EQ(it->second.allowed, rule.allowed) << where << ": allowed range differs";
    }
    for (const auto& [name, row] : d.parameters) {
      bool known = false;
      for (const auto& rule : s.parameters) known = known || rule.name == name;
      EXPECT_TRUE(known) << n << ": docs/config.md lists parameter " << name << ", which the code does not have";
    }
  }
}

TEST(ConfigDocs, StartKindsAndKeysMatchTheSchema) {
  for (const auto& n : skipstone::system_names()) {
    if (!doc().systems.count(n)) continue;
    const SystemDoc& d = doc().systems.at(n);
    const skipstone::SystemSchema s = skipstone::system_schema(n);
    EXPECT_TRUE(d.has_start_table) << n << ": no \"| start | key | default | allowed |\" table";
    EXPECT_EQ(d.default_start, s.default_start) << n << ": \"Default start:\" line";
    for (const auto& [start, schema] : s.starts) {
      for (const auto& rule : schema.keys) {
        const std::string where = n + ", start " + start + ", key " + rule.name;
        const auto it = d.start_keys.find({start, rule.name});
        if (it == d.start_keys.end()) {
          ADD_FAILURE() << where << " is not in docs/config.md";
          continue;
        }
        expect_default(rule, it->second.default_text, where);
        EXPECT_EQ(it->second.allowed, rule.allowed) << where << ": allowed range differs";
      }
    }
    for (const auto& [start_key, row] : d.start_keys) {
      bool known = false;
      const auto it = s.starts.find(start_key.first);
      if (it != s.starts.end())
        for (const auto& rule : it->second.keys) known = known || rule.name == start_key.second;
      EXPECT_TRUE(known) << n << ": docs/config.md lists start " << start_key.first << " key " << start_key.second
                         << ", which the code does not have";
    }
  }
}

TEST(ConfigDocs, ObservablesPerSystemMatchTheSchema) {
  std::set<std::string> allowed_somewhere;
  for (const auto& n : skipstone::system_names()) {
    const skipstone::SystemSchema s = skipstone::system_schema(n);
    allowed_somewhere.insert(s.observables.begin(), s.observables.end());
    if (!doc().systems.count(n)) continue;
    EXPECT_EQ(doc().systems.at(n).observables, s.observables) << n << ": \"Observables:\" line (same names, same order)";
  }
  EXPECT_EQ(doc().catalogue, allowed_somewhere) << "the observable table of docs/config.md";
  for (const auto& name : doc().catalogue) EXPECT_NO_THROW(skipstone::observable_info(name)) << name;
}

TEST(ConfigDocs, ConfigsShownInTheDocsAreValid) {
  for (const char* file : {"README.md", "docs/config.md"}) {
    const std::vector<std::string> blocks = config_blocks(read_text(file));
    EXPECT_FALSE(blocks.empty()) << file << " shows no complete config";
    for (const auto& text : blocks) {
      try {
        skipstone::parse_config_text(text);
      } catch (const std::exception& e) {
        ADD_FAILURE() << file << ": " << e.what() << "\n" << text;
      }
    }
  }
}

TEST(ConfigDocs, TheReferenceExampleDeclaresAHistogram) {
  const std::vector<std::string> blocks = config_blocks(read_text("docs/config.md"));
  ASSERT_FALSE(blocks.empty());
  EXPECT_EQ(skipstone::parse_config_text(blocks.front()).histograms.count("caustic_gap"), 1u);
}

}  // namespace
