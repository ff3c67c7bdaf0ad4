package cogflow

import "github.com/cogflow/cogflow/runtime"

// The types a caller implements or reads to take part in a run,
// re-exported from package runtime.
type (
	// Resolver answers cognitive dependencies (RunOptions.Resolvers): it
	// returns (nil, nil) to pass a request on to the next in the cascade.
	Resolver = runtime.Resolver
	// Request is a dependency to answer: its category, description,
	// inputs, the candidates an element is chosen from, the screen.
	Request = runtime.Request
	// Answer is a resolver's answer and what it cost.
	Answer = runtime.Answer
	// Observer receives a run's events as they happen
	// (RunOptions.Observer): each step, each finished loop item, where an
	// interrupted run stopped.
	Observer = runtime.Recorder
	// StepRecord is one finished step, as an Observer gets it.
	StepRecord = runtime.StepRecord
)
