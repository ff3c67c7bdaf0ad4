package cogflow

import (
	"github.com/cogflow/cogflow/runtime"

	"github.com/cogflow/cogflow/runtime/dependency"
)

// The types a caller implements or reads to take part in a run,
// re-exported from package runtime.
type (
	// Answerer answers cognitive dependencies (RunOptions.Answerers): it
	// returns (nil, nil) to pass a request on to the next in the cascade.
	Answerer = dependency.Answerer
	// Request is a dependency to answer: its category, description,
	// inputs, the candidates an element is chosen from, the screen.
	Request = dependency.Request
	// Answer is a answerer's answer and what it cost.
	Answer = dependency.Answer
	// Observer receives a run's events as they happen
	// (RunOptions.Observer): each step, each finished loop item, where an
	// interrupted run stopped.
	Observer = runtime.Observer
	// StepReport is one finished step, as an Observer gets it.
	StepReport = runtime.StepReport
)
