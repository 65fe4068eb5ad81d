// answers.h: proved Z3 answers shared between runs (chapoly-verify --query-cache DIR).
//
// The mutant tests prove hundreds of variants of a few kernels; each variant asks nearly the same
// queries as the shipped kernel up to the point its edit changes. With --query-cache, a run reads
// the answers earlier runs of the same verifier binary proved and adds its own, so those queries
// are answered without Z3. Only "proved" answers are kept: a one-operation range query that held
// (smt.h's Prover) and an assertion set that Z3 found unsatisfiable (checkCached, by a 128-bit
// structural digest of the assertions). What keeps it sound is that the digest is exact for the
// terms it takes (below); a failure is always asked again and reported with its own counterexample
// (whose values may differ from a run without the store: the solver's history differs). A verdict
// with the store differs from one without it only where the run without it times out: a stored
// answer is not asked again, so it cannot time out.
//
// Not for the build's proof gate (it never passes --query-cache, and chapoly-verify refuses it
// beside --proof-cache, so no proof made with reused answers is stored as a proof): the store is a
// speed-up for tests. The directory is trusted as far as the results of the runs that read it
// (anyone who can write there can mark a query proved), and the digest is not collision-resistant
// against a crafted file.
#pragma once

#include <z3++.h>

#include <string>

namespace cv::answers {

/// Reads every regular `*.answers` file in `dir` (the directory is this verifier's: not through a
/// symlink, never a FIFO, at most 256 MiB, whole lines only) and takes its lines that start with
/// the tag: `tag` (this binary's digest: a query's meaning is this binary's code) and the Z3
/// library's version. A file whose first line has another tag (another binary's or Z3's) is
/// removed. From then on, add() records new answers for store(). False when `dir` cannot be read.
bool load(const std::string &dir, const std::string &tag);
/// Whether load() was called (a --query-cache run).
bool enabled();
/// Whether `key` was proved by an earlier run or this one.
bool known(const std::string &key);
/// Records `key` as proved (when enabled()).
void add(const std::string &key);
/// Writes the keys add() recorded to a new `*.answers` file (a fresh name, written whole, then
/// renamed: readers see all of it or none). Nothing when not enabled() or nothing is new. False
/// when the file could not be written (the answers are lost; nothing else is).
bool store();

/// s.check(), except that in a --query-cache run an assertion set proved unsatisfiable before
/// (here or in an earlier run) is answered unsat without asking Z3, and a new unsat answer is
/// recorded. sat and unknown are never stored or reused. The digest reads s.assertions() over
/// Bool, Int, Real and bit-vector terms (a set with another sort, a quantifier or a Z3 fresh name
/// is asked of Z3 and not stored); it does not see tracked assertions (s.add(e, p)) or recursive
/// function definitions (recdef), so a solver using either must not come here (this verifier's
/// use neither).
z3::check_result checkCached(z3::solver &s);

}  // namespace cv::answers
