package trace

// Get returns the attribute an element description names (the names of
// the language's element attributes: id, name, text, role, label,
// placeholder, href, description, path, class, value), or "" for any other
// name. It is the one place an attribute is looked up by name: the
// compiler reads recorded targets with it, the runtime live elements
// (driver.Element.Attr).
func (a *Attributes) Get(name string) string {
	switch name {
	case "id":
		return a.ID
	case "name":
		return a.Name
	case "text":
		return a.Text
	case "role":
		return a.Role
	case "label":
		return a.Label
	case "placeholder":
		return a.Placeholder
	case "href":
		return a.Href
	case "description":
		return a.Description
	case "path":
		return a.Path
	case "class":
		return a.Class
	case "value":
		return a.Value
	}
	return ""
}
