package main

import (
	"bytes"
	"fmt"
	"strings"
)

// contextLines is how many unchanged lines surround each hunk.
const contextLines = 3

// unifiedDiff renders the line differences between a and b in the unified
// format of diff -u, with the file shown as a/path and b/path.
func unifiedDiff(path string, a, b []byte) []byte {
	x, y := splitLines(a), splitLines(b)
	ops := diffLines(x, y)
	var out bytes.Buffer
	fmt.Fprintf(&out, "--- a/%s\n+++ b/%s\n", path, path)
	for i := 0; i < len(ops); {
		if ops[i].kind == ' ' {
			i++
			continue
		}
		// A hunk runs from contextLines before the first change to
		// contextLines after the last change that is close enough.
		start := max(i-contextLines, 0)
		end := i
		for j := i; j < len(ops); j++ {
			if ops[j].kind != ' ' {
				end = j
			} else if j-end > 2*contextLines {
				break
			}
		}
		end = min(end+contextLines+1, len(ops))
		writeHunk(&out, ops[start:end])
		i = end
	}
	return out.Bytes()
}

func writeHunk(out *bytes.Buffer, ops []diffOp) {
	aStart, bStart := ops[0].aLine, ops[0].bLine
	var aLen, bLen int
	for _, op := range ops {
		if op.kind != '+' {
			aLen++
		}
		if op.kind != '-' {
			bLen++
		}
	}
	fmt.Fprintf(out, "@@ -%s +%s @@\n", hunkRange(aStart, aLen), hunkRange(bStart, bLen))
	for _, op := range ops {
		out.WriteByte(op.kind)
		out.WriteString(op.text)
		if !strings.HasSuffix(op.text, "\n") {
			out.WriteString("\n\\ No newline at end of file\n")
		}
	}
}

func hunkRange(start, n int) string {
	if n == 0 {
		return fmt.Sprintf("%d,0", start)
	}
	if n == 1 {
		return fmt.Sprintf("%d", start+1)
	}
	return fmt.Sprintf("%d,%d", start+1, n)
}

func splitLines(b []byte) []string {
	var lines []string
	for len(b) > 0 {
		i := bytes.IndexByte(b, '\n')
		if i < 0 {
			lines = append(lines, string(b))
			break
		}
		lines = append(lines, string(b[:i+1]))
		b = b[i+1:]
	}
	return lines
}

// diffOp is one line of the edit script: ' ' kept, '-' removed, '+' added.
// aLine and bLine are the 0-based line numbers where it stands in each file.
type diffOp struct {
	kind         byte
	text         string
	aLine, bLine int
}

// diffLines computes a shortest edit script with Myers' algorithm, which
// needs time proportional to the size of the change rather than the product
// of the file lengths: formatting changes are usually small.
func diffLines(a, b []string) []diffOp {
	n, m := len(a), len(b)
	maxD := n + m
	offset := maxD + 1
	v := make([]int, 2*maxD+3)
	var trace [][]int
	for d := 0; d <= maxD; d++ {
		if d > maxTraceEdits {
			return replaceAll(a, b)
		}
		// Only the diagonals -d-1…d+1 matter at step d; keeping just them
		// bounds the trace by the square of the edit count.
		trace = append(trace, append([]int(nil), v[offset-d-1:offset+d+2]...))
		for k := -d; k <= d; k += 2 {
			var x int
			if k == -d || (k != d && v[offset+k-1] < v[offset+k+1]) {
				x = v[offset+k+1]
			} else {
				x = v[offset+k-1] + 1
			}
			y := x - k
			for x < n && y < m && a[x] == b[y] {
				x++
				y++
			}
			v[offset+k] = x
			if x >= n && y >= m {
				return backtrack(trace, a, b, d)
			}
		}
	}
	return nil
}

// maxTraceEdits caps the work of a diff; a change larger than this is shown
// as the whole file removed and added.
const maxTraceEdits = 4000

func replaceAll(a, b []string) []diffOp {
	var ops []diffOp
	for i, l := range a {
		ops = append(ops, diffOp{kind: '-', text: l, aLine: i})
	}
	for i, l := range b {
		ops = append(ops, diffOp{kind: '+', text: l, aLine: len(a), bLine: i})
	}
	return ops
}

// backtrack walks the recorded frontiers from the end to recover the edits.
func backtrack(trace [][]int, a, b []string, dEnd int) []diffOp {
	var ops []diffOp
	x, y := len(a), len(b)
	for d := dEnd; d > 0; d-- {
		at := func(k int) int { return trace[d][k+d+1] }
		k := x - y
		var prevK int
		if k == -d || (k != d && at(k-1) < at(k+1)) {
			prevK = k + 1
		} else {
			prevK = k - 1
		}
		prevX := at(prevK)
		prevY := prevX - prevK
		for x > prevX && y > prevY {
			x--
			y--
			ops = append(ops, diffOp{kind: ' ', text: a[x], aLine: x, bLine: y})
		}
		if x == prevX {
			y--
			ops = append(ops, diffOp{kind: '+', text: b[y], aLine: x, bLine: y})
		} else {
			x--
			ops = append(ops, diffOp{kind: '-', text: a[x], aLine: x, bLine: y})
		}
	}
	for x > 0 && y > 0 {
		x--
		y--
		ops = append(ops, diffOp{kind: ' ', text: a[x], aLine: x, bLine: y})
	}
	for i, j := 0, len(ops)-1; i < j; i, j = i+1, j-1 {
		ops[i], ops[j] = ops[j], ops[i]
	}
	return ops
}
