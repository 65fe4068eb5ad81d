#!/usr/bin/env python3
"""render.py: the template stage of chapoly-gen.

Reads the scheduled kernel IR (JSON written by chapoly-gen) and renders the ISA's Jinja2
templates (templates/<isa>/kernel.cpp.j2, kernel.h.j2) into chapoly_NAME.cpp and chapoly_NAME.h. The output is a
pure function of the IR: no dates, host names or paths outside the IR's meta block.

Usage: render.py --ir IR.json --templates DIR --out-dir DIR
"""
import argparse
import json
import os
import sys

import jinja2


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--ir", required=True)
    ap.add_argument("--templates", required=True)
    ap.add_argument("--out-dir", required=True)
    args = ap.parse_args()

    with open(args.ir, encoding="utf-8") as f:
        ir = json.load(f)
    env = jinja2.Environment(
        loader=jinja2.FileSystemLoader(args.templates),
        undefined=jinja2.StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
        keep_trailing_newline=True,
    )
    env.filters["hex"] = lambda v: "0x%x" % v
    name = ir["params"]["name"]
    for template, suffix in (("kernel.cpp.j2", ".cpp"), ("kernel.h.j2", ".h")):
        text = env.get_template(template).render(ir=ir, p=ir["params"], meta=ir["meta"], blocks=ir["blocks"])
        # Trailing whitespace never carries meaning; strip it so diffs stay clean.
        text = "\n".join(line.rstrip() for line in text.split("\n"))
        with open(os.path.join(args.out_dir, "chapoly_" + name + suffix), "w", encoding="utf-8") as f:
            f.write(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
