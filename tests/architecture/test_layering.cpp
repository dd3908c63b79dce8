// The core's layering (docs/architecture.md): every #include "<folder>/..." in core/<module>
// names the module itself or one of the direct dependencies core/CMakeLists.txt declares for
// it; the declared graph has no cycle and is the graph drawn in docs/architecture.md.  A new
// back-edge (say fem including model) fails here, with the file and line.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <regex>
#include <set>
#include <sstream>
#include <string>

namespace {

namespace fs = std::filesystem;

struct DeclaredModule {
  const char* name;
  const char* deps;  // space-separated
};
const DeclaredModule kDeclared[] = {
#include "core_layers.inc"
};

using Graph = std::map<std::string, std::set<std::string>>;

Graph declared_graph() {
  Graph g;
  for (const DeclaredModule& m : kDeclared) {
    std::istringstream in(m.deps);
    std::set<std::string>& deps = g[m.name];
    for (std::string d; in >> d;) deps.insert(d);
  }
  return g;
}

const fs::path kCore = fs::path(SUCTION_SOURCE_DIR) / "core";

/// folder -> folders its files include (with one example "file:line" per edge)
std::map<std::pair<std::string, std::string>, std::string> include_edges(const std::set<std::string>& folders) {
  std::map<std::pair<std::string, std::string>, std::string> edges;
  const std::regex inc(R"(^\s*#\s*include\s*"([A-Za-z0-9_]+)/)");
  for (const auto& entry : fs::recursive_directory_iterator(kCore)) {
    if (!entry.is_regular_file()) continue;
    const std::string ext = entry.path().extension().string();
    if (ext != ".h" && ext != ".cpp" && ext != ".cu" && ext != ".cuh") continue;
    const std::string module = fs::relative(entry.path(), kCore).begin()->string();
    std::ifstream file(entry.path());
    std::string line;
    for (int n = 1; std::getline(file, line); ++n) {
      std::smatch m;
      if (!std::regex_search(line, m, inc)) continue;
      const std::string target = m[1];
      if (target == module || !folders.count(target)) continue;
      edges.try_emplace({module, target}, fs::relative(entry.path(), kCore.parent_path()).string() + ":" +
                                              std::to_string(n));
    }
  }
  return edges;
}

}  // namespace

TEST(Layering, EveryCoreFolderIsADeclaredModule) {
  const Graph g = declared_graph();
  ASSERT_FALSE(g.empty());
  for (const auto& entry : fs::directory_iterator(kCore))
    if (entry.is_directory())
      EXPECT_TRUE(g.count(entry.path().filename().string()))
          << "core/" << entry.path().filename().string() << " is not declared in core/CMakeLists.txt";
}

TEST(Layering, DeclaredOrderHasNoBackEdge) {
  // each module's deps are declared before it (so the graph is acyclic)
  const Graph g = declared_graph();
  std::set<std::string> seen;
  for (const DeclaredModule& m : kDeclared) {
    for (const std::string& d : g.at(m.name))
      EXPECT_TRUE(seen.count(d)) << m.name << " depends on " << d << ", declared after it";
    seen.insert(m.name);
  }
}

TEST(Layering, IncludesFollowTheDeclaredDependencies) {
  const Graph g = declared_graph();
  std::set<std::string> folders;
  for (const auto& [name, deps] : g) folders.insert(name);
  const auto edges = include_edges(folders);
  EXPECT_GT(edges.size(), 10u) << "the include scan found almost nothing: is " << kCore << " readable?";
  for (const auto& [edge, where] : edges)
    EXPECT_TRUE(g.at(edge.first).count(edge.second))
        << where << ": core/" << edge.first << " includes core/" << edge.second
        << ", which is not among its declared dependencies (core/CMakeLists.txt); a module may "
           "only use the modules below it (docs/architecture.md)";
}

TEST(Layering, ArchitectureDocDrawsTheDeclaredGraph) {
  // docs/architecture.md has a ```mermaid block with one "a --> b" line per declared dependency
  std::ifstream doc(fs::path(SUCTION_SOURCE_DIR) / "docs" / "architecture.md");
  ASSERT_TRUE(doc.good()) << "docs/architecture.md is missing";
  Graph drawn;
  bool in_graph = false;
  const std::regex edge(R"(^\s*([A-Za-z0-9_]+)\s*-->\s*([A-Za-z0-9_]+)\s*$)");
  for (std::string line; std::getline(doc, line);) {
    if (line.rfind("```mermaid", 0) == 0) in_graph = true;
    else if (in_graph && line.rfind("```", 0) == 0) break;
    std::smatch m;
    if (in_graph && std::regex_match(line, m, edge)) drawn[m[1]].insert(m[2]);
  }
  Graph declared = declared_graph();
  for (auto it = declared.begin(); it != declared.end();) it = it->second.empty() ? declared.erase(it) : std::next(it);
  for (const auto& [from, deps] : declared)
    for (const std::string& to : deps)
      EXPECT_TRUE(drawn[from].count(to)) << "docs/architecture.md lacks the edge " << from << " --> " << to;
  for (const auto& [from, deps] : drawn)
    for (const std::string& to : deps)
      EXPECT_TRUE(declared[from].count(to)) << "docs/architecture.md draws " << from << " --> " << to
                                            << ", which core/CMakeLists.txt does not declare";
}
