// Entities::Ci::Variable (lib/api/entities/ci/variable.rb): `hidden` and `environment_scope`
// only for variables that have them (not the instance's); a hidden variable's value is null.
import type { CiVariable } from './records.js';
import type { VariableOwnerKind } from './variables.js';

export function variableEntity(v: CiVariable, kind: VariableOwnerKind) {
  if (kind === 'instance') {
    return { variable_type: v.variableType, key: v.key, value: v.value, protected: v.protected, masked: v.masked, raw: v.raw, description: v.description };
  }
  return {
    variable_type: v.variableType,
    key: v.key,
    value: v.hidden ? null : v.value,
    hidden: v.hidden,
    protected: v.protected,
    masked: v.masked,
    raw: v.raw,
    environment_scope: v.environmentScope,
    description: v.description,
  };
}
