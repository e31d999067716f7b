// compare_probe_output <expected> <actual> [<differences>]: the lines a probe program printed
// against libtorch 1.13 (expected) and against miniaten (actual) must agree, line for line by
// label (a line's first word; "ERR label: ..." for an error). Numbers compare with a float
// tolerance (1e-4 relative, 1e-6 absolute: the probes print 6 significant digits, and a sum taken
// in another order can move the last one); every other character must be equal. <differences>
// lists the labels (prefixes) where miniaten departs from libtorch on purpose, libtorch's bugs,
// each with its reason after a '#': those lines are shown, not compared. Exits 1 when any other
// line differs, is missing, or is printed by miniaten only.

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <map>
#include <string>
#include <utility>
#include <vector>

namespace {

bool is_number_start(const std::string& s, size_t i) {
  const char c = s[i];
  if (std::isdigit(static_cast<unsigned char>(c))) return true;
  if (s.compare(i, 3, "nan") == 0 || s.compare(i, 3, "inf") == 0)
    return true;  // NaN's sign is noise
  return (c == '-' || c == '.') && i + 1 < s.size() &&
         (std::isdigit(static_cast<unsigned char>(s[i + 1])) || s.compare(i + 1, 3, "nan") == 0 ||
          s.compare(i + 1, 3, "inf") == 0);
}

// Walks both lines together; a number in one must meet a close number in the other.
bool lines_agree(const std::string& a, const std::string& b) {
  size_t i = 0, j = 0;
  while (i < a.size() && j < b.size()) {
    const bool letter_before = i > 0 && std::isalpha(static_cast<unsigned char>(a[i - 1]));
    if (!letter_before && is_number_start(a, i) && is_number_start(b, j)) {
      char* end_a = nullptr;
      char* end_b = nullptr;
      const double x = std::strtod(a.c_str() + i, &end_a);
      const double y = std::strtod(b.c_str() + j, &end_b);
      const bool both_nan = std::isnan(x) && std::isnan(y);
      if (!both_nan && x != y &&
          std::fabs(x - y) > 1e-6 + 1e-4 * std::max(std::fabs(x), std::fabs(y))) {
        return false;
      }
      i = static_cast<size_t>(end_a - a.c_str());
      j = static_cast<size_t>(end_b - b.c_str());
      continue;
    }
    if (a[i] != b[j]) return false;
    ++i;
    ++j;
  }
  return i == a.size() && j == b.size();
}

std::vector<std::string> read_lines(const char* path) {
  std::ifstream in(path);
  if (!in) {
    std::fprintf(stderr, "cannot read %s\n", path);
    std::exit(2);
  }
  std::vector<std::string> lines;
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return lines;
}

// A line's label: its first word ("ERR label:" and "EXC label:" lines: the label), numbered by
// occurrence so that a label printed twice gives two keys.
std::string label_of(const std::string& line) {
  std::string rest = line;
  if (rest.rfind("ERR ", 0) == 0 || rest.rfind("EXC ", 0) == 0) rest = rest.substr(4);
  std::string label = rest.substr(0, rest.find(' '));
  if (!label.empty() && label.back() == ':') label.pop_back();
  return label;
}

std::vector<std::pair<std::string, std::string>> keyed(const std::vector<std::string>& lines) {
  std::map<std::string, int> seen;
  std::vector<std::pair<std::string, std::string>> result;
  for (const std::string& line : lines) {
    const std::string label = label_of(line);
    result.emplace_back(label + "#" + std::to_string(seen[label]++), line);
  }
  return result;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 3 && argc != 4) {
    std::fprintf(stderr, "usage: %s <expected> <actual> [<differences>]\n", argv[0]);
    return 2;
  }
  const auto expected = keyed(read_lines(argv[1]));
  const auto actual = keyed(read_lines(argv[2]));
  std::vector<std::string> departures;
  if (argc == 4) {
    for (std::string line : read_lines(argv[3])) {
      line = line.substr(0, line.find('#'));
      while (!line.empty() && line.back() == ' ') line.pop_back();
      if (!line.empty()) departures.push_back(line);
    }
  }
  auto departs = [&](const std::string& key) {
    for (const std::string& d : departures) {
      if (key.compare(0, d.size(), d) == 0) return true;
    }
    return false;
  };
  std::map<std::string, std::string> actual_by_key(actual.begin(), actual.end());
  std::map<std::string, std::string> expected_by_key(expected.begin(), expected.end());
  int differing = 0;
  for (const auto& [key, e] : expected) {
    const auto found = actual_by_key.find(key);
    const std::string a = found == actual_by_key.end() ? "<no line>" : found->second;
    if (departs(key)) {
      std::cout << "on purpose:\n  libtorch: " << e << "\n  miniaten: " << a << "\n";
      continue;
    }
    if (lines_agree(e, a)) continue;
    ++differing;
    std::cout << "differs:\n  libtorch: " << e << "\n  miniaten: " << a << "\n";
  }
  for (const auto& [key, a] : actual) {
    if (expected_by_key.count(key) != 0) continue;
    if (departs(key)) {
      std::cout << "on purpose, miniaten only: " << a << "\n";
      continue;
    }
    ++differing;
    std::cout << "miniaten only: " << a << "\n";
  }
  std::cout << differing << " of " << expected.size() << " lines differ unexpectedly\n";
  return differing == 0 ? 0 : 1;
}
