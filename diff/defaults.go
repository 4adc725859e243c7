package diff

// withDefaults fills the fields of o left at their zero value with those
// of DefaultCompareOptions, so that a zero Options (or CompareOptions)
// works as report.BuildOptions{} does: nil Rules are the default rules
// (an empty, non-nil slice is no rules), Alpha 0 is 0.05 and Confidence
// 0 is 0.95.
func (o CompareOptions) withDefaults() CompareOptions {
	d := DefaultCompareOptions()
	if o.Rules == nil {
		o.Rules = d.Rules
	}
	if o.Alpha == 0 {
		o.Alpha = d.Alpha
	}
	if o.Confidence == 0 {
		o.Confidence = d.Confidence
	}
	return o
}
