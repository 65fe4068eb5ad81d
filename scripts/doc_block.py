#!/usr/bin/env python3
"""doc_block.py NAME BLOCK DOC [AFTER]: put the text of file BLOCK (which starts with
<!-- BEGIN NAME --> and ends with <!-- END NAME -->) into the Markdown file DOC in place of the
block of that name, or, where DOC has none yet, after the marker line AFTER (else at the end).
Used by the scripts that re-make tables in docs/benchmarks.md."""
import sys


def main(argv):
    if len(argv) not in (4, 5):
        sys.exit("usage: doc_block.py NAME BLOCK DOC [AFTER]")
    name, block_path, doc_path = argv[1:4]
    after = argv[4] if len(argv) == 5 else None
    block = open(block_path).read().rstrip("\n")
    doc = open(doc_path).read()
    b, e = f"<!-- BEGIN {name} -->", f"<!-- END {name} -->"
    if b in doc and e in doc:
        doc = doc[:doc.index(b)] + block + doc[doc.index(e) + len(e):]
    elif after is not None and after in doc:
        i = doc.index(after) + len(after)
        doc = doc[:i] + "\n\n" + block + doc[i:]
    else:
        doc = doc.rstrip("\n") + "\n\n" + block + "\n"
    tmp = doc_path + ".tmp"
    with open(tmp, "w") as f:
        f.write(doc)
    import os
    os.replace(tmp, doc_path)  # no half-written document if this is interrupted


if __name__ == "__main__":
    main(sys.argv)
