// Each schedule sees the same inputs. Forked children share their parent's
// open file descriptions: the first schedule would read all of a piped
// stdin and move the offsets of the files the program opened before the
// fork point, so later schedules would see other inputs and fail
// differently. The fork server therefore reads a piped stdin once, before
// the first schedule, and every child gets its own copy of those bytes and
// its own offset in every regular file, starting where the program was.
// A pipe whose both ends the program holds is replaced by a new one in each
// child (with the bytes that waited in it), since the fork server keeps its
// own ends open: a child's reader would otherwise never see end-of-file.
#pragma once

namespace snag::explore {

// In the fork server, before the first fork.
void save_schedule_inputs();
// In each child, first thing after the fork.
void give_schedule_inputs();

}  // namespace snag::explore
