"""The rules: Tea for 2 (t42: the reducer with probe, its state, compact
storage and scoring), Tea Time (teatime) and Tea Witches (witches). Pure
logic: no screen, no file, no pin."""
