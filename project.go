package cogflow

import (
	"errors"
	"io/fs"
	"path/filepath"

	"github.com/cogflow/cogflow/lang/ast"
	"github.com/cogflow/cogflow/lang/diag"
	"github.com/cogflow/cogflow/stdlib/kb"
	"github.com/cogflow/cogflow/stdlib/skills"
)

// KnowledgeFileName is the project's knowledge base file inside its
// folder.
const KnowledgeFileName = "knowledge.hcl"

// ProjectKBPath is where a project keeps its knowledge base.
func ProjectKBPath(dir string) string { return filepath.Join(dir, KnowledgeFileName) }

// ProjectKB returns the knowledge base of the project folder dir: its
// knowledge.hcl when there is one, so that what reflect learned is used,
// and the default shipped with cogflow otherwise. A file that does not
// parse gives nil and its errors, each with its position.
func ProjectKB(dir string) (*kb.KB, diag.List) {
	path := ProjectKBPath(dir)
	src, err := kb.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return kb.Default(), nil
	}
	if err != nil {
		var l diag.List
		l.Errorf(ast.Range{Filename: path}, "cannot read the knowledge base: %v", err)
		return nil, l
	}
	k, ds := kb.Parse(src, path)
	if ds.HasErrors() {
		return nil, ds
	}
	return k, nil
}

// ProjectSkillsDir is where a project keeps its own skills, one folder per
// driver (skills/browser/*.cog): `cogflow skills discover` writes the
// skills it validated there.
func ProjectSkillsDir(dir string) string { return filepath.Join(dir, "skills") }

// ProjectSkills returns the skills a workflow of the project folder dir
// may call without declaring them: the drivers' own and the project's,
// which hide a driver's skill of the same name. A skill file that does not
// parse is reported, and its skills are left out.
func ProjectSkills(dir string) (*skills.Library, diag.List) {
	return skills.WithProject(ProjectSkillsDir(dir))
}
