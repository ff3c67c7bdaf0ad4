package check

import (
	"slices"

	"github.com/cogflow/cogflow/lang/ast"
)

// skillNamed returns the skill a call of name runs in the code being
// checked: the file's own, else the library skill of the driver that runs
// it (Env.Skills), else nil. A library skill is checked once per driver,
// in the same Info, so that the interpreter finds the types of its steps.
func (c *checker) skillNamed(name string) *skillInfo {
	if s := c.skills[name]; s != nil {
		return s
	}
	if c.env.Skills == nil || c.drv == "" {
		return nil
	}
	key := c.drv + "\x00" + name
	if s, ok := c.libSkills[key]; ok {
		return s
	}
	decl := c.env.Skills.Skill(c.drv, name)
	if decl == nil {
		return nil
	}
	if _, isAction := Actions[name]; isAction {
		return nil // a library cannot redefine an action either
	}
	s := &skillInfo{decl: decl, driver: c.drv}
	if c.libSkills == nil {
		c.libSkills = map[string]*skillInfo{}
	}
	c.libSkills[key] = s
	if c.info.LibrarySkills == nil {
		c.info.LibrarySkills = map[string]*ast.Skill{}
	}
	if c.info.LibrarySkills[name] == nil {
		c.info.LibrarySkills[name] = decl
	}
	return s
}

// otherDriverSkill reports a call of a skill that only other drivers'
// libraries have: the driver running the code lacks it. It returns false
// when no library has the name.
func (c *checker) otherDriverSkill(ref *ast.Ref) bool {
	if c.env.Skills == nil {
		return false
	}
	drivers := c.env.Skills.DriversOf(ref.Name)
	if len(drivers) == 0 || slices.Contains(drivers, c.drv) {
		return false
	}
	d := c.diags.Errorf(ref.Range, "skill %s is in the %s skill library; the %s driver lacks it", ref.Name, orList(drivers), c.driverOrNone())
	hint(d, ref.Name, c.env.Skills.Names(c.drv))
	return true
}

func (c *checker) driverOrNone() string {
	if c.drv == "" {
		return "task's"
	}
	return c.drv
}

// libraryNames are the library skills the code being checked may call,
// for "did you mean".
func (c *checker) libraryNames() []string {
	if c.env.Skills == nil || c.drv == "" {
		return nil
	}
	return c.env.Skills.Names(c.drv)
}

// fileDriver is the driver of the file's first task that names one: the
// driver a file's own skills run under, since a skill has no driver
// statement of its own.
func fileDriver(f *ast.File) string {
	for _, d := range f.Decls {
		if t, ok := d.(*ast.Task); ok {
			for _, s := range t.Body.Stmts {
				if dd, ok := s.(*ast.DriverDecl); ok {
					return dd.Name.Name
				}
			}
		}
	}
	return ""
}
