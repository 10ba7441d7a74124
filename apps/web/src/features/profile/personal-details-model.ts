import type { BusinessType, UpdateProfileBody } from '@pactum/contracts/profile'
import { type Country, countryByCode, isUsStateAbbreviation } from '@pactum/domain/countries'
import { internationalPhone } from '@pactum/domain/phone'
import type { PersonalProfile } from '../../lib/api/personal-profile.ts'

/** The form's own fields; each maps to one place in the PUT /me/personal body. */
export interface PersonalDetailsValues {
  businessType: BusinessType
  firstName: string
  lastName: string
  dobDay: string
  dobMonth: string
  dobYear: string
  phoneCountry: string
  phoneNumber: string
  line1: string
  line2: string
  city: string
  state: string
  postalCode: string
  /** Only asked of companies, and optional (POST /me/personal/business_url, not part of the PUT). */
  businessUrl: string
}

export type PersonalDetailsField =
  'businessType' | 'firstName' | 'lastName' | 'dob' | 'phone' | 'line1' | 'line2' | 'city' | 'state' | 'postalCode' | 'businessUrl'

/** Error kinds; the form turns each into a translated sentence. */
export type FieldError = 'required' | 'under18' | 'invalidDate' | 'invalidPhone' | 'invalidState' | 'invalidUrl' | 'tooLong' | 'server'
export type PersonalDetailsErrors = Partial<Record<PersonalDetailsField, FieldError>>

export const minimumAge = 18
const maxLength = 200
/** As @pactum/contracts/verification `businessUrlBodySchema`. */
const maxUrlLength = 2000

/** How the address "state" field behaves in `country`. */
export function divisionOf(country: Country | undefined): { shown: boolean; required: boolean; usStates: boolean } {
  if (!country || country.divisionLabel === 'none') return { shown: false, required: false, usStates: false }
  return { shown: true, required: country.divisionRequired, usStates: country.code === 'us' }
}

export function postalCodeShown(country: Country | undefined): boolean {
  return country?.postalCodeRequired ?? true
}

/** The national part of an E.164 number, when it carries `dialCode`. */
export function nationalNumber(phone: string, dialCode: string | undefined): string {
  const compact = phone.replace(/[\s().-]/g, '')
  if (dialCode && compact.startsWith(dialCode)) return compact.slice(dialCode.length)
  return phone
}

/** Prefill from GET /me/personal; the phone country defaults to the active (address) country. */
export function initialValues(profile: PersonalProfile, activeCountry: string): PersonalDetailsValues {
  const phoneCountry = profile.metadata?.phone_country_code || activeCountry
  const dob = profile.dob
  return {
    businessType: profile.business_type === 'company' ? 'company' : 'individual',
    firstName: profile.name?.first ?? '',
    lastName: profile.name?.last ?? '',
    dobDay: dob ? String(dob.day) : '',
    dobMonth: dob ? String(dob.month) : '',
    dobYear: dob ? String(dob.year) : '',
    phoneCountry,
    phoneNumber: nationalNumber(profile.phone ?? '', countryByCode(phoneCountry)?.dialCode),
    line1: profile.address?.line1 ?? '',
    line2: profile.address?.line2 ?? '',
    city: profile.address?.city ?? '',
    state: profile.address?.state ?? '',
    postalCode: profile.address?.postal_code ?? '',
    businessUrl: profile.business_url ?? '',
  }
}

/** An absolute http(s) address with a host, as the server accepts for the business website. */
export function isWebAddress(value: string): boolean {
  // `new URL` would also take "https:example.com"; the server wants the scheme's "//".
  if (!/^https?:\/\//i.test(value)) return false
  try {
    const url = new URL(value)
    return (url.protocol === 'http:' || url.protocol === 'https:') && url.hostname !== ''
  } catch {
    return false
  }
}

/** The business website to send after the details are saved: a company's, when given and changed. */
export function businessUrlToSave(values: PersonalDetailsValues, saved: string): string | undefined {
  const url = values.businessUrl.trim()
  if (values.businessType !== 'company' || url === '' || url === saved) return undefined
  return url
}

export function isRealDate(day: number, month: number, year: number): boolean {
  const date = new Date(Date.UTC(year, month - 1, day))
  return date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day
}

/** Whether someone born on the given day is at least `minimumAge` on `today` (local calendar date). */
export function isAdult(day: number, month: number, year: number, today: Date): boolean {
  const years = today.getFullYear() - year
  const hadBirthday = today.getMonth() + 1 > month || (today.getMonth() + 1 === month && today.getDate() >= day)
  return (hadBirthday ? years : years - 1) >= minimumAge
}

/** E.164 as the server wants it: the number typed, read in the selected country's plan (a national trunk 0 is dropped where that country drops it). */
export function fullPhoneNumber(values: PersonalDetailsValues): string | undefined {
  return internationalPhone(values.phoneNumber, values.phoneCountry)
}

/** The client-side mirror of the server's rules (spec §5, PUT /me/personal). */
export function validatePersonalDetails(
  values: PersonalDetailsValues,
  activeCountry: string,
  today: Date = new Date(),
): PersonalDetailsErrors {
  const errors: PersonalDetailsErrors = {}
  const country = countryByCode(activeCountry)
  const requireText = (field: PersonalDetailsField, value: string) => {
    if (!value.trim()) errors[field] = 'required'
    else if (value.trim().length > maxLength) errors[field] = 'tooLong'
  }
  requireText('firstName', values.firstName)
  requireText('lastName', values.lastName)

  if (!values.dobDay || !values.dobMonth || !values.dobYear) errors.dob = 'required'
  else {
    const [day, month, year] = [Number(values.dobDay), Number(values.dobMonth), Number(values.dobYear)]
    if (!isRealDate(day, month, year)) errors.dob = 'invalidDate'
    else if (!isAdult(day, month, year, today)) errors.dob = 'under18'
  }

  if (!values.phoneNumber.trim()) errors.phone = 'required'
  else if (!fullPhoneNumber(values)) errors.phone = 'invalidPhone'

  requireText('line1', values.line1)
  if (values.line2.trim().length > maxLength) errors.line2 = 'tooLong'
  requireText('city', values.city)

  const division = divisionOf(country)
  if (division.shown) {
    if (division.required && !values.state.trim()) errors.state = 'required'
    else if (division.usStates && values.state && !isUsStateAbbreviation(values.state)) errors.state = 'invalidState'
    else if (values.state.trim().length > 100) errors.state = 'tooLong'
  }
  if (postalCodeShown(country)) {
    if (!values.postalCode.trim()) errors.postalCode = 'required'
    else if (values.postalCode.trim().length > 20) errors.postalCode = 'tooLong'
  }

  const businessUrl = values.businessUrl.trim()
  if (values.businessType === 'company' && businessUrl !== '') {
    if (businessUrl.length > maxUrlLength) errors.businessUrl = 'tooLong'
    else if (!isWebAddress(businessUrl)) errors.businessUrl = 'invalidUrl'
  }
  return errors
}

/** The PUT /me/personal body: every part complete; state and postal code only where the country has them. */
export function updateBody(values: PersonalDetailsValues, activeCountry: string): UpdateProfileBody {
  const country = countryByCode(activeCountry)
  const address: NonNullable<UpdateProfileBody['address']> = {
    line1: values.line1.trim(),
    line2: values.line2.trim(),
    city: values.city.trim(),
  }
  if (divisionOf(country).shown) address.state = values.state.trim()
  if (postalCodeShown(country)) address.postal_code = values.postalCode.trim()
  address.country_code = activeCountry
  return {
    business_type: values.businessType,
    name: { first: values.firstName.trim(), last: values.lastName.trim() },
    dob: { day: Number(values.dobDay), month: Number(values.dobMonth), year: Number(values.dobYear) },
    phone: fullPhoneNumber(values) ?? values.phoneNumber,
    metadata: { phone_country_code: values.phoneCountry },
    address,
  }
}

const serverFieldMap: Record<string, PersonalDetailsField> = {
  business_type: 'businessType',
  'name.first': 'firstName',
  'name.last': 'lastName',
  name: 'firstName',
  dob: 'dob',
  phone: 'phone',
  metadata: 'phone',
  'address.line1': 'line1',
  'address.line2': 'line2',
  'address.city': 'city',
  'address.state': 'state',
  'address.postal_code': 'postalCode',
  address: 'line1',
  // POST /me/personal/business_url names its one field body.url.
  url: 'businessUrl',
}

/** A server path such as `body.dob.day` or `body.address.state` → the form field it belongs to. */
export function fieldOfServerPath(path: string): PersonalDetailsField | undefined {
  const parts = path.replace(/^body\./, '').split('.')
  for (let length = parts.length; length > 0; length -= 1) {
    const field = serverFieldMap[parts.slice(0, length).join('.')]
    if (field) return field
  }
  return undefined
}

/** The fields a 400 validation_failed answer points at (`details.fields[].field`, or `details.field`). */
export function serverFieldErrors(details: Record<string, unknown>): PersonalDetailsErrors {
  const paths: string[] = []
  if (Array.isArray(details.fields)) {
    for (const entry of details.fields) {
      if (entry && typeof entry === 'object' && 'field' in entry && typeof entry.field === 'string') paths.push(entry.field)
    }
  }
  if (typeof details.field === 'string') paths.push(details.field)
  const errors: PersonalDetailsErrors = {}
  for (const path of paths) {
    const field = fieldOfServerPath(path)
    if (field) errors[field] = 'server'
  }
  return errors
}
