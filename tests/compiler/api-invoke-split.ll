; An invoked API member whose normal destination has other predecessors:
; the edge is split so that __snag_api_end runs only after this call, and
; the landing pad gets the end hook as well. (IR, because clang rarely
; produces this shape from C++.)
; RUN: SNAG_INSTRUMENT=api -O0

target triple = "x86_64-pc-linux-gnu"

%"class.std::vector" = type { i8* }
@v = global %"class.std::vector" zeroinitializer

declare i64 @_ZNKSt6vectorIiSaIiEE4sizeEv(%"class.std::vector"*)
declare i32 @__gxx_personality_v0(...)

; CHECK-LABEL: define i64 @size_or_zero(i1 %c)
define i64 @size_or_zero(i1 %c) personality i32 (...)* @__gxx_personality_v0 {
entry:
  br i1 %c, label %call, label %join

; CHECK: call:
; CHECK-NEXT: call void @__snag_api_begin(i8* bitcast (%"class.std::vector"* @v to i8*), i32 0, i64 [[SITE:-?[0-9]+]])
; CHECK-NEXT: %n = invoke i64 @_ZNKSt6vectorIiSaIiEE4sizeEv(%"class.std::vector"* @v)
; CHECK-NEXT: to label %[[EDGE:[^ ,]+]] unwind label %lp
call:
  %n = invoke i64 @_ZNKSt6vectorIiSaIiEE4sizeEv(%"class.std::vector"* @v)
          to label %join unwind label %lp

; CHECK: [[EDGE]]:
; CHECK-NEXT: call void @__snag_api_end(i8* bitcast (%"class.std::vector"* @v to i8*), i64 [[SITE]])
; CHECK-NEXT: br label %join
; CHECK: join:
; CHECK-NEXT: %r = phi i64 [ %n, %[[EDGE]] ], [ 0, %entry ]
; CHECK-NOT: __snag_api_end
; CHECK: ret i64 %r
join:
  %r = phi i64 [ %n, %call ], [ 0, %entry ]
  ret i64 %r

; CHECK: lp:
; CHECK-NEXT: landingpad
; CHECK-NEXT: cleanup
; CHECK-NEXT: call void @__snag_api_end(i8* bitcast (%"class.std::vector"* @v to i8*), i64 [[SITE]])
; CHECK-NEXT: resume
lp:
  %x = landingpad { i8*, i32 } cleanup
  resume { i8*, i32 } %x
}
