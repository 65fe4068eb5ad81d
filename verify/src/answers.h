// answers.h: proved Z3 answers shared between runs (chapoly-verify --query-cache DIR).
//
// The mutant tests prove hundreds of variants of a few kernels; each variant asks nearly the same
// queries as the shipped kernel up to the point its edit changes. With --query-cache, a run reads
// the answers earlier runs of the same verifier binary proved and adds its own, so those queries
// are answered without Z3. Only "proved" answers are kept: a one-operation range query that held
// (smt.h's Prover) and an assertion set that Z3 found unsatisfiable (checkCached, by a 128-bit
// structural digest of the assertions). Every use in this verifier reads unsat as "the claim holds"
// or "the path is infeasible", so a reused answer can only let a run accept what Z3 would also
// accept; a failure is always asked again and reported with its own counterexample.
//
// Not for the build's proof gate (it never passes --query-cache): the store is a speed-up for
// tests, and its digest is not collision-resistant against a crafted file.
#pragma once

#include <z3++.h>

#include <string>

namespace cv::answers {

/// Reads every regular `*.answers` file in `dir` and takes its lines that start with `tag` (this
/// binary's digest: a query's meaning is this binary's code); a file whose first line has another
/// tag (another binary's) is removed. From then on, add() records new answers for store().
/// False when `dir` cannot be read.
bool load(const std::string &dir, const std::string &tag);
/// Whether load() was called (a --query-cache run).
bool enabled();
/// Whether `key` was proved by an earlier run or this one.
bool known(const std::string &key);
/// Records `key` as proved (when enabled()).
void add(const std::string &key);
/// Writes the keys add() recorded to a new `*.answers` file (a fresh name, written whole, then
/// renamed: readers see all of it or none). Nothing when not enabled() or nothing is new.
void store();

/// s.check(), except that in a --query-cache run an assertion set proved unsatisfiable before
/// (here or in an earlier run) is answered unsat without asking Z3, and a new unsat answer is
/// recorded. sat and unknown are never stored or reused.
z3::check_result checkCached(z3::solver &s);

}  // namespace cv::answers
