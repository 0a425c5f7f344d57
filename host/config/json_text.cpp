// Implementation of parse_json_text: nlohmann::json's parser with a callback that follows the
// key path being read, for duplicate keys and for syntax errors.
#include "json_text.hpp"

#include <set>
#include <string>
#include <vector>

#include "config_error.hpp"

namespace skipstone {
namespace {

using nlohmann::json;

// Where the parser is: one frame per open object or array, fed by the parser's callback.
class ParsePosition {
 public:
  // Returns true (keep every value); throws ConfigError for a key seen twice in one object.
  bool on_event(json::parse_event_t event, const json& parsed) {
    switch (event) {
      case json::parse_event_t::object_start:
      case json::parse_event_t::array_start:
        enter_value();
        frames_.push_back(Frame{event == json::parse_event_t::array_start, 0, "", false, {}});
        break;
      case json::parse_event_t::key: {
        Frame& f = frames_.back();
        const std::string key = parsed.get<std::string>();
        if (!f.keys.insert(key).second)
          throw ConfigError(join(path_to(frames_.size() - 1), key),
                            "duplicate key: it appears twice in one object; allowed: each key once");
        f.key = key;
        f.in_value = true;
        break;
      }
      case json::parse_event_t::value:
        enter_value();
        leave_value();
        break;
      case json::parse_event_t::object_end:
      case json::parse_event_t::array_end:
        frames_.pop_back();
        leave_value();
        break;
    }
    return true;
  }

  // The key path of the value being read (for a syntax error), "" outside any key.
  std::string current() const {
    std::string p = path_to(frames_.empty() ? 0 : frames_.size() - 1);
    if (frames_.empty()) return p;
    const Frame& top = frames_.back();
    if (top.array) return p + "[" + std::to_string(top.count) + "]";  // the element not yet read
    return top.in_value ? join(p, top.key) : p;
  }

 private:
  struct Frame {
    bool array;
    std::size_t count;  // arrays: elements begun
    std::string key;    // objects: the last key read
    bool in_value;      // objects: its value not yet complete
    std::set<std::string> keys;
  };

  void enter_value() {
    if (!frames_.empty() && frames_.back().array) ++frames_.back().count;
  }
  void leave_value() {
    if (!frames_.empty() && !frames_.back().array) frames_.back().in_value = false;
  }
  static std::string join(const std::string& path, const std::string& key) { return path.empty() ? key : path + "." + key; }
  // The path of frame `n`: each frame below it is inside one value (its last key or element).
  std::string path_to(std::size_t n) const {
    std::string p;
    for (std::size_t i = 0; i < n; ++i) {
      const Frame& f = frames_[i];
      p = f.array ? p + "[" + std::to_string(f.count - 1) + "]" : join(p, f.key);
    }
    return p;
  }

  std::vector<Frame> frames_;
};

// nlohmann's "[json.exception.parse_error.101] parse error at line 1, column 9: ..." without
// the bracketed id, plus what a JSON number may be where the parser met NaN, Infinity or 1e999.
std::string parse_error_text(const json::exception& e) {
  std::string what = e.what();
  const auto close = what.find("] ");
  if (what.rfind("[json.exception.", 0) == 0 && close != std::string::npos) what = what.substr(close + 2);
  if (what.find("number overflow") != std::string::npos)
    what += "; allowed: a finite number, magnitude below 1.8e308";
  else if (what.find("invalid literal") != std::string::npos)
    what += "; allowed: numbers, strings, true, false, null, arrays and objects (NaN and Infinity are not JSON)";
  return what;
}

// Line and column (from 1) of byte `at` of `text`.
std::string line_and_column(const std::string& text, std::size_t at) {
  std::size_t line = 1, column = 1;
  for (std::size_t i = 0; i < at; ++i) {
    if (text[i] == '\n') {
      ++line;
      column = 1;
    } else {
      ++column;
    }
  }
  return "line " + std::to_string(line) + ", column " + std::to_string(column);
}

}  // namespace

json parse_json_text(const std::string& text, const std::string& source) {
  const auto syntax_error = [&](const std::string& where, const std::string& what) {
    const std::string file = source.empty() ? "" : " in " + source;
    return ConfigError(where.empty() ? (source.empty() ? "(file)" : source) : where,
                       "not valid JSON" + (where.empty() ? std::string() : file) + ": " + what);
  };
  const std::size_t nul = text.find('\0');
  if (nul != std::string::npos)
    throw syntax_error("", "a NUL byte at " + line_and_column(text, nul) +
                               "; allowed: one JSON document, then nothing but white space");
  ParsePosition position;
  try {
    return json::parse(text, [&](int, json::parse_event_t event, json& parsed) { return position.on_event(event, parsed); });
  } catch (const json::exception& e) {  // syntax errors and numbers that overflow a double
    throw syntax_error(position.current(), parse_error_text(e));
  }
}

}  // namespace skipstone
