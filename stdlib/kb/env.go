package kb

import (
	"github.com/cogflow/cogflow/lang/check"
	"github.com/cogflow/cogflow/stdlib/funcs"
	"github.com/cogflow/cogflow/stdlib/skills"
)

// CheckEnv is the environment a workflow is checked against: the
// knowledge base k (nil: the default), cogflow's function library and the
// skill libraries the drivers ship (a project's own skills: set Skills to
// skills.WithProject's library). It
// is the one place that builds a check.Env, so that the command line, the
// library, the compiler and the tests check alike.
func CheckEnv(k *KB) *check.Env {
	if k == nil {
		k = Default()
	}
	return &check.Env{Knowledge: k, Functions: funcs.Library(nil), Skills: skills.Stdlib()}
}
