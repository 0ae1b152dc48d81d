"""The numeric contract, parameters, the one result model, the catalogue as data, decisions."""
