// Bad settings stop the compilation (exit status 1) with a message that
// names the problem, and for API tables, the file and line.
// RUN: expect=error check=UNKNOWN SNAG_INSTRUMENT=memory,bogus
// RUN: expect=error check=MISSING SNAG_API_TABLE=%S/inputs/bad-table.txt
// RUN: expect=error check=ACCESS SNAG_API_TABLE=%S/inputs/bad-access.txt
// RUN: expect=error check=UNREADABLE SNAG_API_TABLE=%S/inputs/no-such-table.txt
// A bad table is an error even when it comes after a good one.
// RUN: expect=error check=MISSING SNAG_API_TABLE=%S/inputs/user-table.txt:%S/inputs/bad-table.txt

int value;
int get(void) { return value; }

// UNKNOWN: error: {{.*}}snag: SNAG_INSTRUMENT: unknown kind 'bogus' (expected a comma-separated list of memory, atomics, memops, functions, api, guard, all, none)
// MISSING: error: {{.*}}snag: {{.*}}/inputs/bad-table.txt:3: expected '<class> <member> read|write|element', got 'std::vector  push_back'
// ACCESS: error: {{.*}}snag: {{.*}}/inputs/bad-access.txt:2: access must be 'read', 'write' or 'element', got 'modify'
// UNREADABLE: error: {{.*}}snag: SNAG_API_TABLE: cannot read '{{.*}}/inputs/no-such-table.txt': No such file or directory
