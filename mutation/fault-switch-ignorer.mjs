// Stryker ignorer plugin: the reference's fault switches are not behaviour to mutate. With no fault on, `app.has('x')`
// is always false, so a mutant that keeps it false (condition → false, or the code it guards) is equivalent by
// construction; the fault catalog (`conformance prove`) already shows that switching it on is noticed.
import { declareValuePlugin, PluginKind } from '@stryker-mutator/api/plugin';

const FAULT_NAME = /^[a-zA-Z0-9]+(-[a-zA-Z0-9]+)*$/;
const REASON = 'fault switch: only a reference fault reaches this (see reference/faults.ts and `conformance prove`)';

/** `app.has('fault')`, `this.o.app.has('fault')`, `faults.has('fault')`. */
function isFaultSwitch(node) {
  if (node?.type !== 'CallExpression' || node.callee.type !== 'MemberExpression' || node.callee.property.name !== 'has') return false;
  const [arg] = node.arguments;
  if (node.arguments.length !== 1 || arg.type !== 'StringLiteral' || !FAULT_NAME.test(arg.value)) return false;
  const owner = node.callee.object;
  return (owner.type === 'Identifier' && (owner.name === 'app' || owner.name === 'faults')) || (owner.type === 'MemberExpression' && owner.property.name === 'app');
}

/** True when the expression is true only with a fault on: a switch, or switches joined by || / &&. */
function onlyWithFault(node) {
  if (isFaultSwitch(node)) return true;
  if (node?.type === 'LogicalExpression' && node.operator === '||') return onlyWithFault(node.left) && onlyWithFault(node.right);
  if (node?.type === 'LogicalExpression' && node.operator === '&&') return onlyWithFault(node.left) || onlyWithFault(node.right);
  return false;
}

/** True when the expression is false only with a fault on: `!switch`, or such negations joined by &&. */
function onlyWithoutFault(node) {
  if (node?.type === 'UnaryExpression' && node.operator === '!') return onlyWithFault(node.argument);
  if (node?.type === 'LogicalExpression' && node.operator === '&&') return onlyWithoutFault(node.left) && onlyWithoutFault(node.right);
  return false;
}

export const strykerPlugins = [
  declareValuePlugin(PluginKind.Ignore, 'fault-switch', {
    shouldIgnore(path) {
      const { node, parent } = path;
      if (onlyWithFault(node) || onlyWithoutFault(node)) return REASON;
      // The branch a fault switch alone opens: `if (app.has(x)) …`, `app.has(x) ? … : normal`, `!app.has(x) ? normal : …`.
      if (parent && (parent.type === 'IfStatement' || parent.type === 'ConditionalExpression')) {
        if (node === parent.consequent && onlyWithFault(parent.test)) return REASON;
        if (node === parent.alternate && onlyWithoutFault(parent.test)) return REASON;
      }
      return undefined;
    },
  }),
];
