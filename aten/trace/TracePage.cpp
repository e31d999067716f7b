#include "aten/trace/TracePage.h"

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <sstream>
#include <utility>

#include "c10/util/Exception.h"

namespace at {
namespace trace {

namespace assets {
extern const char* const kTracePage_trace_page_html;
extern const char* const kTracePage_trace_page_css;
extern const char* const kTracePage_trace_page_js;
}  // namespace assets

namespace {

std::string html_escaped(const std::string& s) {
  std::string out;
  for (char c : s) {
    switch (c) {
      case '&':
        out += "&amp;";
        break;
      case '<':
        out += "&lt;";
        break;
      case '>':
        out += "&gt;";
        break;
      case '"':
        out += "&quot;";
        break;
      default:
        out += c;
    }
  }
  return out;
}

std::string page_json(const TracePage& page) {
  std::string json =
      c10::str("{\"title\": ", c10::json_string(page.title),
               ", \"command\": ", c10::json_string(page.command), ", \"cells\": ", c10::kTraceCells,
               ", \"max_calls\": ", c10::kTraceMaxCalls, ", \"groups\": [");
  for (size_t g = 0; g < page.groups.size(); ++g) {
    const TracePageGroup& group = page.groups[g];
    json += c10::str(g ? ",\n" : "\n", "{\"text\": ", c10::json_string(group.text),
                     ", \"error\": ", c10::json_string(group.error),
                     ", \"calls\": ", c10::to_json(group.calls), ", \"results\": [");
    for (size_t r = 0; r < group.results.size(); ++r) {
      const TracePageResult& result = group.results[r];
      json += c10::str(r ? ", " : "", "{\"name\": ", c10::json_string(result.name),
                       ", \"line\": ", c10::json_string(result.line), ", \"tensor\": ",
                       result.is_tensor ? c10::to_json(result.tensor) : std::string("null"), "}");
    }
    json += "]}";
  }
  return json + "]}";
}

}  // namespace

std::string trace_page_html(const TracePage& page) {
  // The template is cut at its markers once and the pieces put in between: text that is put in
  // (a script mentioning "/*{{script}}*/", say) is never searched for markers.
  const std::string html = assets::kTracePage_trace_page_html;
  const std::pair<const char*, std::string> fills[] = {
      {"{{title}}", html_escaped(page.title)},
      {"/*{{style}}*/", assets::kTracePage_trace_page_css},
      {"/*{{data}}*/", page_json(page)},
      {"/*{{script}}*/", assets::kTracePage_trace_page_js},
  };
  std::string out;
  size_t from = 0;
  for (const auto& [marker, with] : fills) {
    const size_t at = html.find(marker, from);
    TORCH_INTERNAL_ASSERT(at != std::string::npos, "the trace page has no ", marker);
    out.append(html, from, at - from).append(with);
    from = at + std::strlen(marker);
  }
  return out.append(html, from, std::string::npos);
}

void write_trace_page(const std::string& path, const TracePage& page) {
  const std::string html = trace_page_html(page);
  std::ofstream out(path);
  TORCH_CHECK(out.good(), "cannot open '", path, "' to write the trace page");
  out << html;
  TORCH_CHECK(out.good(), "writing the trace page to '", path, "' failed");
}

namespace {

// MINIATEN_TRACE_HTML=path: every call of the run, written as one page when the process exits.
// Read once at load, as MINIATEN_TRACE_JSON is.
const std::string& page_path_from_env() {
  static const std::string path = [] {
    const char* v = std::getenv("MINIATEN_TRACE_HTML");
    return std::string(v != nullptr ? v : "");
  }();
  return path;
}

std::string program_command() {
  std::ifstream in("/proc/self/cmdline");
  std::string command, arg;
  while (std::getline(in, arg, '\0')) command += (command.empty() ? "" : " ") + arg;
  return command;
}

[[maybe_unused]] const bool g_env_page = [] {
  if (page_path_from_env().empty()) return false;
  c10::TraceRecorder::start();
  std::atexit([] {
    try {
      TracePage page;
      page.command = "MINIATEN_TRACE_HTML=" + page_path_from_env() + " " + program_command();
      page.groups.emplace_back();
      page.groups.back().calls = c10::TraceRecorder::stop();
      write_trace_page(page_path_from_env(), page);
    } catch (const std::exception& e) {
      std::fprintf(stderr, "MINIATEN_TRACE_HTML: %s\n", e.what());
    }
  });
  return true;
}();

}  // namespace

}  // namespace trace
}  // namespace at
