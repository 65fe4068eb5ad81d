// Ordinary C++ outside the emitted dialect (strings, temporaries): rejected with exit status 2,
// each construct named with its location.
#include <string>
std::string greet(const std::string &n) { return "hello " + n; }
int main() { return static_cast<int>(greet("x").size()); }
