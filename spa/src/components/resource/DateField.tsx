import dayjs, { type Dayjs } from 'dayjs';
import updateLocale from 'dayjs/plugin/updateLocale';
import { AdapterDayjs } from '@mui/x-date-pickers/AdapterDayjs';
import { DatePicker } from '@mui/x-date-pickers/DatePicker';
import { LocalizationProvider } from '@mui/x-date-pickers/LocalizationProvider';

// Spec section 9: weeks start on Sunday (0) and the first week of the year contains day 1.
dayjs.extend(updateLocale);
dayjs.updateLocale('en', { weekStart: 0, yearStart: 1 });

export interface DateFieldProps {
  label: string;
  value: string | null;
  onChange: (value: string | null) => void;
  required?: boolean;
  disabled?: boolean;
  error?: string;
  helperText?: string;
}

/** A date picker bound to an ISO date string (YYYY-MM-DD). */
export default function DateField({ label, value, onChange, required, disabled, error, helperText }: DateFieldProps) {
  const parsed: Dayjs | null = value ? dayjs(value) : null;
  return (
    <LocalizationProvider dateAdapter={AdapterDayjs} adapterLocale="en">
      <DatePicker
        label={label}
        value={parsed && parsed.isValid() ? parsed : null}
        disabled={disabled}
        onChange={(d) => onChange(d && d.isValid() ? d.format('YYYY-MM-DD') : null)}
        slotProps={{ textField: { required, error: !!error, helperText: error ?? helperText ?? ' ', size: 'small', fullWidth: true } }}
      />
    </LocalizationProvider>
  );
}
