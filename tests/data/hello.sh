#!/bin/sh
# A script, not an ELF file: `snag` must refuse it with a one-line error.
echo hello
