package main

import "fmt"

// policySource says which setting chose how a step in doubt is settled,
// for the resume's report and the new run's journal.
func policySource(from, policy string, line int) string {
	switch from {
	case "flag":
		return fmt.Sprintf("by --in-doubt=%s", policy)
	case "step":
		return fmt.Sprintf("by the step's in_doubt: %q (line %d)", policy, line)
	case "terminal":
		return "by the answer at the terminal"
	}
	return "since its effect can be read back"
}
