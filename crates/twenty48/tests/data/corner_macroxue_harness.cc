// Regenerates tests/data/corner_macroxue.txt from macroxue/2048-ai's own node.h (snapshot
// fee3359): copy this file beside its node.h, board.h and cache.h, then
//   g++ -O1 -std=c++17 -o harness corner_macroxue_harness.cc && ./harness
#include "node.h"
#include <random>
// Prints boards in bitarcade's text form with Node::Evaluate() (descending, non-interactive).
int main() {
  Node::BuildScoreMap();
  std::mt19937 rng(2048);
  for (int i = 0; i < 64; ++i) {
    int layout[N][N];
    int kind = i % 4;
    int top = 1 + rng() % 15;
    for (int y = 0; y < N; ++y)
      for (int x = 0; x < N; ++x) {
        int r;
        if (kind == 0) r = rng() % 16;
        else if (kind == 1) r = (rng() % 3 == 0) ? 0 : 1 + rng() % top;
        else if (kind == 2) { r = top - (y * 4 + x) - (int)(rng() % 2); if (r < 0) r = 0; }
        else r = (rng() % 2) ? 0 : (int)(rng() % 16);
        layout[y][x] = r;
      }
    Node n(layout);
    for (int y = 0; y < N; ++y) {
      for (int x = 0; x < N; ++x) {
        int r = layout[y][x];
        if (r) printf("%d", 1 << r); else printf(".");
        if (x < N - 1) printf(" ");
      }
      if (y < N - 1) printf("/");
    }
    printf(" = %d\n", n.Evaluate());
  }
}
