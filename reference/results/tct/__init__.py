"""The target-charging technique (Cohen, Lyu 2023, arXiv:2302.11044): targets, NotPrior,
conditional release, wrappers, selection and the TCT accountant."""
