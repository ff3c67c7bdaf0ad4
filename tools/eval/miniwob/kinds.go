package main

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
)

// The fixtures' README sorts the tasks into kinds: 1 a value from the
// instruction to type, 2 an element the instruction names, 3 a set of
// items it names (a workflow for those has a fixed sequence of steps),
// 4 a task that varies between instances, 5 a value to compute or search.
// The harness reads the kinds from there at run time, so that the table
// follows the README rather than a copy of it.

// kindItem is the start of one kind in the README's numbered list.
var kindItem = regexp.MustCompile(`(?m)^([1-9])\.\s`)

// taskName is how a task's name is written (its page's file name).
var taskName = regexp.MustCompile(`[a-z0-9]+(?:-[a-z0-9]+)*`)

// parseKinds reads the numbered list of kinds from the README's text:
// every known task named in item N is of kind N. A task named under two
// kinds is an error; a task named under none is left out.
func parseKinds(readme string, known map[string]bool) (map[string]int, error) {
	start := strings.Index(readme, "Kinds of task")
	if start < 0 {
		return nil, fmt.Errorf(`no "Kinds of task" list`)
	}
	text := readme[start:]
	items := kindItem.FindAllStringSubmatchIndex(text, -1)
	if len(items) == 0 {
		return nil, fmt.Errorf(`no numbered kinds after "Kinds of task"`)
	}
	kinds := map[string]int{}
	for i, m := range items {
		end := len(text)
		if i+1 < len(items) {
			end = items[i+1][0]
		}
		kind, _ := strconv.Atoi(text[m[2]:m[3]])
		for _, name := range taskName.FindAllString(text[m[1]:end], -1) {
			if !known[name] {
				continue // a word of the description
			}
			if k, dup := kinds[name]; dup && k != kind {
				return nil, fmt.Errorf("task %s is listed under kinds %d and %d", name, k, kind)
			}
			kinds[name] = kind
		}
	}
	return kinds, nil
}

// readKinds reads the kinds from the README next to the html folder.
func readKinds(htmlDir string, known map[string]bool) (map[string]int, error) {
	path := filepath.Join(filepath.Dir(filepath.Clean(htmlDir)), "README.md")
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	kinds, err := parseKinds(string(b), known)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return kinds, nil
}

// freshSeeds are the n seeds a demonstration on seed a is run on: a-1 …
// a-n, deterministic and never a itself.
func freshSeeds(a string, n int) []string {
	seeds := make([]string, n)
	for i := range seeds {
		seeds[i] = fmt.Sprintf("%s-%d", a, i+1)
	}
	return seeds
}
