module example.com/budgetfuncs

go 1.22
