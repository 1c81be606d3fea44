'use client'
/**
 * The visual editor's inputs for the fields the content check rules (keystatic-config.ts `checkedBy`).
 * Keystatic's own inputs compute their message from their own rules, in their own words ("Page title
 * must be no longer than 80 characters"); these are the same components of Keystatic's UI kit showing
 * the content check's message instead ("at most 80 characters (this has 96)").
 *
 * A value is judged once it is left (blur) or a save is refused, as Keystatic does, and also as soon
 * as it is shown when it is already wrong in the file: a file broken by hand then says what is wrong
 * the moment it opens, before anyone has typed anything (and a save of an unchanged entry, which
 * Keystatic skips, would never show it).
 */
import { NumberField } from '@keystar/ui/number-field'
import { Item, Picker } from '@keystar/ui/picker'
import { TextArea, TextField } from '@keystar/ui/text-field'
import { useState } from 'react'

/**
 * What Keystatic hands every form field's input. The value is the field's kind of value, or the value
 * as the file holds it where the field cannot hold that (keystatic-config.ts `checkedBy`): it is then
 * wrong, and the input shows it empty or as text, with the content check's message.
 */
interface InputProps<V> {
  value: V | unknown
  onChange: (value: V) => void
  autoFocus: boolean
  forceValidation: boolean
}

/** Fixed by the field: its words, whether it must be filled in, and the content check's word on a value. */
interface FieldSetup {
  label: string
  description?: string
  isRequired: boolean
  problem: (value: unknown) => string | undefined
}

/**
 * The props every input takes alike: the field's words, whether it is required, focus, the message to
 * show for the value and the handler that marks the field as left.
 */
function useFieldProps<V>(props: InputProps<V> & FieldSetup, isEmpty: (value: unknown) => boolean) {
  // Wrong on arrival and not simply empty: it was written that way, so say so at once. An empty field
  // waits for the editor to leave it, like a new entry's fields.
  const [left, setLeft] = useState(() => !isEmpty(props.value) && props.problem(props.value) !== undefined)
  const problem = left || props.forceValidation ? props.problem(props.value) : undefined
  const { label, description, isRequired, autoFocus } = props
  return { label, description, isRequired, autoFocus, errorMessage: problem, onBlur: () => setLeft(true) }
}

export function CheckedTextInput(props: InputProps<string> & FieldSetup & { multiline?: boolean }) {
  const shared = useFieldProps(props, (value) => value === '')
  const Component = props.multiline ? TextArea : TextField
  return <Component value={typeof props.value === 'string' ? props.value : String(props.value ?? '')} onChange={props.onChange} {...shared} />
}

/** A date as Keystatic keeps it: `YYYY-MM-DD`, or null when empty. */
export function CheckedDateInput(props: InputProps<string | null> & FieldSetup) {
  const shared = useFieldProps(props, (value) => value === null)
  return (
    <TextField
      type="date"
      value={typeof props.value === 'string' ? props.value : ''}
      onChange={(value) => props.onChange(value === '' ? null : value)}
      {...shared}
    />
  )
}

/** A number, or null when empty. */
export function CheckedNumberInput(props: InputProps<number | null> & FieldSetup) {
  const shared = useFieldProps(props, (value) => value === null)
  return (
    <NumberField
      value={typeof props.value === 'number' ? props.value : undefined}
      onChange={(value) => props.onChange(Number.isNaN(value) || value === undefined ? null : value)}
      {...shared}
    />
  )
}

/** One of a list of values; the file may hold another, which shows as no choice, with the message. */
export function CheckedSelectInput(props: InputProps<string> & FieldSetup & { options: ReadonlyArray<{ label: string; value: string }> }) {
  const shared = useFieldProps(props, () => false)
  return (
    <Picker
      items={props.options}
      value={typeof props.value === 'string' ? props.value : null}
      onChange={(key) => {
        if (key !== null) props.onChange(String(key))
      }}
      {...shared}
    >
      {(option) => <Item key={option.value}>{option.label}</Item>}
    </Picker>
  )
}
